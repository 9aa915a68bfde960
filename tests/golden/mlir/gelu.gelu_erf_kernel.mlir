module attributes {gpu.container_module} {
  gpu.module @gelu_erf_kernel_module {
    gpu.func @gelu_erf_kernel(%x_ptr: !llvm.ptr, %out_ptr: !llvm.ptr, %n_elements: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c128_i32 = arith.constant 128 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1024_i32 = arith.constant 1024 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c512_i32 = arith.constant 512 : i32
      %c513_i32 = arith.constant 513 : i32
      %c514_i32 = arith.constant 514 : i32
      %c515_i32 = arith.constant 515 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %cst_0 = arith.constant 5.000000e-01 : f32
      %cst_1 = arith.constant 0.707106769 : f32
      %cst_2 = arith.constant 1.000000e+00 : f32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %warp = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.andi %warp, %c3_i32 : i32
      %3 = arith.muli %2, %c128_i32 : i32
      %4 = arith.muli %lane, %c4_i32 : i32
      %base3 = arith.addi %4, %3 : i32
      %s0 = nvvm.read.ptx.sreg.ctaid.x : i32
      %s1 = arith.muli %s0, %c1024_i32 : i32
      %v2_1 = arith.addi %base3, %c1_i32 : i32
      %v2_2 = arith.addi %base3, %c2_i32 : i32
      %v2_3 = arith.addi %base3, %c3_i32 : i32
      %v2_4 = arith.addi %base3, %c512_i32 : i32
      %v2_5 = arith.addi %base3, %c513_i32 : i32
      %v2_6 = arith.addi %base3, %c514_i32 : i32
      %v2_7 = arith.addi %base3, %c515_i32 : i32
      %v4_0 = arith.addi %s1, %base3 : i32
      %v4_1 = arith.addi %s1, %v2_1 : i32
      %v4_2 = arith.addi %s1, %v2_2 : i32
      %v4_3 = arith.addi %s1, %v2_3 : i32
      %v4_4 = arith.addi %s1, %v2_4 : i32
      %v4_5 = arith.addi %s1, %v2_5 : i32
      %v4_6 = arith.addi %s1, %v2_6 : i32
      %v4_7 = arith.addi %s1, %v2_7 : i32
      %v5_0 = arith.extsi %v4_0 : i32 to i64
      %v5_1 = arith.extsi %v4_1 : i32 to i64
      %v5_2 = arith.extsi %v4_2 : i32 to i64
      %v5_3 = arith.extsi %v4_3 : i32 to i64
      %v5_4 = arith.extsi %v4_4 : i32 to i64
      %v5_5 = arith.extsi %v4_5 : i32 to i64
      %v5_6 = arith.extsi %v4_6 : i32 to i64
      %v5_7 = arith.extsi %v4_7 : i32 to i64
      %v6_0 = arith.cmpi slt, %v4_0, %n_elements : i32
      %v6_1 = arith.cmpi slt, %v4_1, %n_elements : i32
      %v6_2 = arith.cmpi slt, %v4_2, %n_elements : i32
      %v6_3 = arith.cmpi slt, %v4_3, %n_elements : i32
      %v6_4 = arith.cmpi slt, %v4_4, %n_elements : i32
      %v6_5 = arith.cmpi slt, %v4_5, %n_elements : i32
      %v6_6 = arith.cmpi slt, %v4_6, %n_elements : i32
      %v6_7 = arith.cmpi slt, %v4_7, %n_elements : i32
      %v7_0 = scf.if %v6_0 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_1 = scf.if %v6_1 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_2 = scf.if %v6_2 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_3 = scf.if %v6_3 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_4 = scf.if %v6_4 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_5 = scf.if %v6_5 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_6 = scf.if %v6_6 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v7_7 = scf.if %v6_7 -> (f32) {
        %5 = llvm.getelementptr %x_ptr[%v5_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %6 = llvm.load %5 : !llvm.ptr -> f32
        scf.yield %6 : f32
      } else {
        scf.yield %cst : f32
      }
      %v8_0 = arith.mulf %cst_0, %v7_0 : f32
      %v8_1 = arith.mulf %cst_0, %v7_1 : f32
      %v8_2 = arith.mulf %cst_0, %v7_2 : f32
      %v8_3 = arith.mulf %cst_0, %v7_3 : f32
      %v8_4 = arith.mulf %cst_0, %v7_4 : f32
      %v8_5 = arith.mulf %cst_0, %v7_5 : f32
      %v8_6 = arith.mulf %cst_0, %v7_6 : f32
      %v8_7 = arith.mulf %cst_0, %v7_7 : f32
      %v9_0 = arith.mulf %v7_0, %cst_1 : f32
      %v9_1 = arith.mulf %v7_1, %cst_1 : f32
      %v9_2 = arith.mulf %v7_2, %cst_1 : f32
      %v9_3 = arith.mulf %v7_3, %cst_1 : f32
      %v9_4 = arith.mulf %v7_4, %cst_1 : f32
      %v9_5 = arith.mulf %v7_5, %cst_1 : f32
      %v9_6 = arith.mulf %v7_6, %cst_1 : f32
      %v9_7 = arith.mulf %v7_7, %cst_1 : f32
      %v10_0 = llvm.call @__nv_erff(%v9_0) : (f32) -> f32
      %v10_1 = llvm.call @__nv_erff(%v9_1) : (f32) -> f32
      %v10_2 = llvm.call @__nv_erff(%v9_2) : (f32) -> f32
      %v10_3 = llvm.call @__nv_erff(%v9_3) : (f32) -> f32
      %v10_4 = llvm.call @__nv_erff(%v9_4) : (f32) -> f32
      %v10_5 = llvm.call @__nv_erff(%v9_5) : (f32) -> f32
      %v10_6 = llvm.call @__nv_erff(%v9_6) : (f32) -> f32
      %v10_7 = llvm.call @__nv_erff(%v9_7) : (f32) -> f32
      %v11_0 = arith.addf %cst_2, %v10_0 : f32
      %v11_1 = arith.addf %cst_2, %v10_1 : f32
      %v11_2 = arith.addf %cst_2, %v10_2 : f32
      %v11_3 = arith.addf %cst_2, %v10_3 : f32
      %v11_4 = arith.addf %cst_2, %v10_4 : f32
      %v11_5 = arith.addf %cst_2, %v10_5 : f32
      %v11_6 = arith.addf %cst_2, %v10_6 : f32
      %v11_7 = arith.addf %cst_2, %v10_7 : f32
      %v12_0 = arith.mulf %v8_0, %v11_0 : f32
      %v12_1 = arith.mulf %v8_1, %v11_1 : f32
      %v12_2 = arith.mulf %v8_2, %v11_2 : f32
      %v12_3 = arith.mulf %v8_3, %v11_3 : f32
      %v12_4 = arith.mulf %v8_4, %v11_4 : f32
      %v12_5 = arith.mulf %v8_5, %v11_5 : f32
      %v12_6 = arith.mulf %v8_6, %v11_6 : f32
      %v12_7 = arith.mulf %v8_7, %v11_7 : f32
      %v13_0 = arith.extsi %v4_0 : i32 to i64
      %v13_1 = arith.extsi %v4_1 : i32 to i64
      %v13_2 = arith.extsi %v4_2 : i32 to i64
      %v13_3 = arith.extsi %v4_3 : i32 to i64
      %v13_4 = arith.extsi %v4_4 : i32 to i64
      %v13_5 = arith.extsi %v4_5 : i32 to i64
      %v13_6 = arith.extsi %v4_6 : i32 to i64
      %v13_7 = arith.extsi %v4_7 : i32 to i64
      scf.if %v6_0 {
        %5 = llvm.getelementptr %out_ptr[%v13_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_0, %5 : f32, !llvm.ptr
      }
      scf.if %v6_1 {
        %5 = llvm.getelementptr %out_ptr[%v13_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_1, %5 : f32, !llvm.ptr
      }
      scf.if %v6_2 {
        %5 = llvm.getelementptr %out_ptr[%v13_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_2, %5 : f32, !llvm.ptr
      }
      scf.if %v6_3 {
        %5 = llvm.getelementptr %out_ptr[%v13_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_3, %5 : f32, !llvm.ptr
      }
      scf.if %v6_4 {
        %5 = llvm.getelementptr %out_ptr[%v13_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_4, %5 : f32, !llvm.ptr
      }
      scf.if %v6_5 {
        %5 = llvm.getelementptr %out_ptr[%v13_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_5, %5 : f32, !llvm.ptr
      }
      scf.if %v6_6 {
        %5 = llvm.getelementptr %out_ptr[%v13_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_6, %5 : f32, !llvm.ptr
      }
      scf.if %v6_7 {
        %5 = llvm.getelementptr %out_ptr[%v13_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v12_7, %5 : f32, !llvm.ptr
      }
      gpu.return
    }
    llvm.func @__nv_erff(f32) -> f32
  }
}

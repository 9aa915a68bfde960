module attributes {gpu.container_module} {
  gpu.module @matrix_add_2d_kernel_module {
    gpu.func @matrix_add_2d_kernel(%x: !llvm.ptr, %y: !llvm.ptr, %out: !llvm.ptr, %M: i32, %N: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c3_i32 = arith.constant 3 : i32
      %c7_i32 = arith.constant 7 : i32
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32
      %c8_i32 = arith.constant 8 : i32
      %c2_i32 = arith.constant 2 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %warp = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.andi %warp, %c1_i32 : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.shrsi %lane, %c3_i32 : i32
      %5 = arith.andi %4, %c3_i32 : i32
      %base5 = arith.addi %5, %3 : i32
      %6 = arith.andi %lane, %c7_i32 : i32
      %base9 = arith.muli %6, %c4_i32 : i32
      %s0 = nvvm.read.ptx.sreg.ctaid.x : i32
      %s1 = arith.muli %s0, %c16_i32 : i32
      %s2 = nvvm.read.ptx.sreg.ctaid.y : i32
      %s3 = arith.muli %s2, %c32_i32 : i32
      %v4_1 = arith.addi %base5, %c8_i32 : i32
      %v6_0 = arith.addi %s1, %base5 : i32
      %v6_1 = arith.addi %s1, %v4_1 : i32
      %v7_0 = arith.muli %v6_0, %N : i32
      %v7_1 = arith.muli %v6_1, %N : i32
      %v8_1 = arith.addi %base9, %c1_i32 : i32
      %v8_2 = arith.addi %base9, %c2_i32 : i32
      %v8_3 = arith.addi %base9, %c3_i32 : i32
      %v10_0 = arith.addi %s3, %base9 : i32
      %v10_1 = arith.addi %s3, %v8_1 : i32
      %v10_2 = arith.addi %s3, %v8_2 : i32
      %v10_3 = arith.addi %s3, %v8_3 : i32
      %v11_0 = arith.addi %v7_0, %v10_0 : i32
      %v11_1 = arith.addi %v7_0, %v10_1 : i32
      %v11_2 = arith.addi %v7_0, %v10_2 : i32
      %v11_3 = arith.addi %v7_0, %v10_3 : i32
      %v11_4 = arith.addi %v7_1, %v10_0 : i32
      %v11_5 = arith.addi %v7_1, %v10_1 : i32
      %v11_6 = arith.addi %v7_1, %v10_2 : i32
      %v11_7 = arith.addi %v7_1, %v10_3 : i32
      %v12_0 = arith.extsi %v11_0 : i32 to i64
      %v12_1 = arith.extsi %v11_1 : i32 to i64
      %v12_2 = arith.extsi %v11_2 : i32 to i64
      %v12_3 = arith.extsi %v11_3 : i32 to i64
      %v12_4 = arith.extsi %v11_4 : i32 to i64
      %v12_5 = arith.extsi %v11_5 : i32 to i64
      %v12_6 = arith.extsi %v11_6 : i32 to i64
      %v12_7 = arith.extsi %v11_7 : i32 to i64
      %v13_0 = arith.cmpi slt, %v6_0, %M : i32
      %v13_1 = arith.cmpi slt, %v6_1, %M : i32
      %v14_0 = arith.cmpi slt, %v10_0, %N : i32
      %v14_1 = arith.cmpi slt, %v10_1, %N : i32
      %v14_2 = arith.cmpi slt, %v10_2, %N : i32
      %v14_3 = arith.cmpi slt, %v10_3, %N : i32
      %v15_0 = arith.andi %v13_0, %v14_0 : i1
      %v15_1 = arith.andi %v13_0, %v14_1 : i1
      %v15_2 = arith.andi %v13_0, %v14_2 : i1
      %v15_3 = arith.andi %v13_0, %v14_3 : i1
      %v15_4 = arith.andi %v13_1, %v14_0 : i1
      %v15_5 = arith.andi %v13_1, %v14_1 : i1
      %v15_6 = arith.andi %v13_1, %v14_2 : i1
      %v15_7 = arith.andi %v13_1, %v14_3 : i1
      %v16_0 = scf.if %v15_0 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_1 = scf.if %v15_1 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_2 = scf.if %v15_2 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_3 = scf.if %v15_3 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_4 = scf.if %v15_4 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_5 = scf.if %v15_5 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_6 = scf.if %v15_6 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v16_7 = scf.if %v15_7 -> (f32) {
        %7 = llvm.getelementptr %x[%v12_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v17_0 = arith.extsi %v11_0 : i32 to i64
      %v17_1 = arith.extsi %v11_1 : i32 to i64
      %v17_2 = arith.extsi %v11_2 : i32 to i64
      %v17_3 = arith.extsi %v11_3 : i32 to i64
      %v17_4 = arith.extsi %v11_4 : i32 to i64
      %v17_5 = arith.extsi %v11_5 : i32 to i64
      %v17_6 = arith.extsi %v11_6 : i32 to i64
      %v17_7 = arith.extsi %v11_7 : i32 to i64
      %v18_0 = scf.if %v15_0 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_1 = scf.if %v15_1 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_2 = scf.if %v15_2 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_3 = scf.if %v15_3 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_4 = scf.if %v15_4 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_5 = scf.if %v15_5 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_6 = scf.if %v15_6 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v18_7 = scf.if %v15_7 -> (f32) {
        %7 = llvm.getelementptr %y[%v17_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        scf.yield %8 : f32
      } else {
        scf.yield %cst : f32
      }
      %v19_0 = arith.addf %v16_0, %v18_0 : f32
      %v19_1 = arith.addf %v16_1, %v18_1 : f32
      %v19_2 = arith.addf %v16_2, %v18_2 : f32
      %v19_3 = arith.addf %v16_3, %v18_3 : f32
      %v19_4 = arith.addf %v16_4, %v18_4 : f32
      %v19_5 = arith.addf %v16_5, %v18_5 : f32
      %v19_6 = arith.addf %v16_6, %v18_6 : f32
      %v19_7 = arith.addf %v16_7, %v18_7 : f32
      %v20_0 = arith.extsi %v11_0 : i32 to i64
      %v20_1 = arith.extsi %v11_1 : i32 to i64
      %v20_2 = arith.extsi %v11_2 : i32 to i64
      %v20_3 = arith.extsi %v11_3 : i32 to i64
      %v20_4 = arith.extsi %v11_4 : i32 to i64
      %v20_5 = arith.extsi %v11_5 : i32 to i64
      %v20_6 = arith.extsi %v11_6 : i32 to i64
      %v20_7 = arith.extsi %v11_7 : i32 to i64
      scf.if %v15_0 {
        %7 = llvm.getelementptr %out[%v20_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_0, %7 : f32, !llvm.ptr
      }
      scf.if %v15_1 {
        %7 = llvm.getelementptr %out[%v20_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_1, %7 : f32, !llvm.ptr
      }
      scf.if %v15_2 {
        %7 = llvm.getelementptr %out[%v20_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_2, %7 : f32, !llvm.ptr
      }
      scf.if %v15_3 {
        %7 = llvm.getelementptr %out[%v20_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_3, %7 : f32, !llvm.ptr
      }
      scf.if %v15_4 {
        %7 = llvm.getelementptr %out[%v20_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_4, %7 : f32, !llvm.ptr
      }
      scf.if %v15_5 {
        %7 = llvm.getelementptr %out[%v20_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_5, %7 : f32, !llvm.ptr
      }
      scf.if %v15_6 {
        %7 = llvm.getelementptr %out[%v20_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_6, %7 : f32, !llvm.ptr
      }
      scf.if %v15_7 {
        %7 = llvm.getelementptr %out[%v20_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v19_7, %7 : f32, !llvm.ptr
      }
      gpu.return
    }
  }
}

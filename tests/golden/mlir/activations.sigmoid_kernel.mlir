module attributes {gpu.container_module} {
  gpu.module @sigmoid_kernel_module {
    gpu.func @sigmoid_kernel(%x: !llvm.ptr, %out: !llvm.ptr, %n: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c128_i32 = arith.constant 128 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %cst_0 = arith.constant 1.000000e+00 : f32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %base3 = arith.muli %lane, %c4_i32 : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.addi %3, %slot : i32
      %5 = arith.cmpi slt, %4, %mt_grid_x : i32
      scf.if %5 {
        %6 = nvvm.read.ptx.sreg.ctaid.x : i32
        %7 = arith.muli %6, %c4_i32 : i32
        %s0 = arith.addi %7, %slot : i32
        %s1 = arith.muli %s0, %c128_i32 : i32
        %v2_1 = arith.addi %base3, %c1_i32 : i32
        %v2_2 = arith.addi %base3, %c2_i32 : i32
        %v2_3 = arith.addi %base3, %c3_i32 : i32
        %v4_0 = arith.addi %s1, %base3 : i32
        %v4_1 = arith.addi %s1, %v2_1 : i32
        %v4_2 = arith.addi %s1, %v2_2 : i32
        %v4_3 = arith.addi %s1, %v2_3 : i32
        %v5_0 = arith.extsi %v4_0 : i32 to i64
        %v5_1 = arith.extsi %v4_1 : i32 to i64
        %v5_2 = arith.extsi %v4_2 : i32 to i64
        %v5_3 = arith.extsi %v4_3 : i32 to i64
        %v6_0 = arith.cmpi slt, %v4_0, %n : i32
        %v6_1 = arith.cmpi slt, %v4_1, %n : i32
        %v6_2 = arith.cmpi slt, %v4_2, %n : i32
        %v6_3 = arith.cmpi slt, %v4_3, %n : i32
        %v7_0 = scf.if %v6_0 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_1 = scf.if %v6_1 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_2 = scf.if %v6_2 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_3 = scf.if %v6_3 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v8_0 = arith.negf %v7_0 : f32
        %v8_1 = arith.negf %v7_1 : f32
        %v8_2 = arith.negf %v7_2 : f32
        %v8_3 = arith.negf %v7_3 : f32
        %v9_0 = llvm.call @__nv_expf(%v8_0) : (f32) -> f32
        %v9_1 = llvm.call @__nv_expf(%v8_1) : (f32) -> f32
        %v9_2 = llvm.call @__nv_expf(%v8_2) : (f32) -> f32
        %v9_3 = llvm.call @__nv_expf(%v8_3) : (f32) -> f32
        %v10_0 = arith.addf %cst_0, %v9_0 : f32
        %v10_1 = arith.addf %cst_0, %v9_1 : f32
        %v10_2 = arith.addf %cst_0, %v9_2 : f32
        %v10_3 = arith.addf %cst_0, %v9_3 : f32
        %v11_0 = arith.divf %cst_0, %v10_0 : f32
        %v11_1 = arith.divf %cst_0, %v10_1 : f32
        %v11_2 = arith.divf %cst_0, %v10_2 : f32
        %v11_3 = arith.divf %cst_0, %v10_3 : f32
        %v12_0 = arith.extsi %v4_0 : i32 to i64
        %v12_1 = arith.extsi %v4_1 : i32 to i64
        %v12_2 = arith.extsi %v4_2 : i32 to i64
        %v12_3 = arith.extsi %v4_3 : i32 to i64
        scf.if %v6_0 {
          %8 = llvm.getelementptr %out[%v12_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v11_0, %8 : f32, !llvm.ptr
        }
        scf.if %v6_1 {
          %8 = llvm.getelementptr %out[%v12_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v11_1, %8 : f32, !llvm.ptr
        }
        scf.if %v6_2 {
          %8 = llvm.getelementptr %out[%v12_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v11_2, %8 : f32, !llvm.ptr
        }
        scf.if %v6_3 {
          %8 = llvm.getelementptr %out[%v12_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v11_3, %8 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
    llvm.func @__nv_expf(f32) -> f32
  }
}

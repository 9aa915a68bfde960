module attributes {gpu.container_module} {
  gpu.module @factories_kernel_module {
    gpu.func @factories_kernel(%out: !llvm.ptr, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %cst = arith.constant 2.500000e+00 : f32
      %cst_0 = arith.constant 0.000000e+00 : f32
      %c30_i32 = arith.constant 30 : i32
      %c0_i32 = arith.constant 0 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.andi %lane, %c1_i32 : i32
      %base1 = arith.muli %2, %c4_i32 : i32
      %3 = nvvm.read.ptx.sreg.ctaid.x : i32
      %4 = arith.muli %3, %c4_i32 : i32
      %5 = arith.addi %4, %slot : i32
      %6 = arith.cmpi slt, %5, %mt_grid_x : i32
      scf.if %6 {
        %v0_1 = arith.addi %base1, %c1_i32 : i32
        %v0_2 = arith.addi %base1, %c2_i32 : i32
        %v0_3 = arith.addi %base1, %c3_i32 : i32
        %v2_0 = arith.extsi %base1 : i32 to i64
        %v2_1 = arith.extsi %v0_1 : i32 to i64
        %v2_2 = arith.extsi %v0_2 : i32 to i64
        %v2_3 = arith.extsi %v0_3 : i32 to i64
        %s3 = arith.addf %cst_0, %cst : f32
        %7 = arith.andi %lane, %c30_i32 : i32
        %8 = arith.cmpi eq, %7, %c0_i32 : i32
        scf.if %8 {
          %9 = llvm.getelementptr %out[%v2_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s3, %9 : f32, !llvm.ptr
          %10 = llvm.getelementptr %out[%v2_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s3, %10 : f32, !llvm.ptr
          %11 = llvm.getelementptr %out[%v2_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s3, %11 : f32, !llvm.ptr
          %12 = llvm.getelementptr %out[%v2_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s3, %12 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

module attributes {gpu.container_module} {
  gpu.module @full_2d_kernel_module {
    gpu.func @full_2d_kernel(%out: !llvm.ptr, %value: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c3_i32 = arith.constant 3 : i32
      %c1_i32 = arith.constant 1 : i32
      %c4_i32 = arith.constant 4 : i32
      %c8_i32 = arith.constant 8 : i32
      %c2_i32 = arith.constant 2 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c24_i32 = arith.constant 24 : i32
      %c0_i32 = arith.constant 0 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.shrsi %lane, %c1_i32 : i32
      %base1 = arith.andi %2, %c3_i32 : i32
      %3 = arith.andi %lane, %c1_i32 : i32
      %base5 = arith.muli %3, %c4_i32 : i32
      %4 = nvvm.read.ptx.sreg.ctaid.x : i32
      %5 = arith.muli %4, %c4_i32 : i32
      %6 = arith.addi %5, %slot : i32
      %7 = arith.cmpi slt, %6, %mt_grid_x : i32
      scf.if %7 {
        %v2_0 = arith.muli %base1, %c8_i32 : i32
        %v3_0 = arith.extsi %v2_0 : i32 to i64
        %v4_1 = arith.addi %base5, %c1_i32 : i32
        %v4_2 = arith.addi %base5, %c2_i32 : i32
        %v4_3 = arith.addi %base5, %c3_i32 : i32
        %8 = arith.extsi %base5 : i32 to i64
        %v6_0 = arith.addi %v3_0, %8 : i64
        %9 = arith.extsi %v4_1 : i32 to i64
        %v6_1 = arith.addi %v3_0, %9 : i64
        %10 = arith.extsi %v4_2 : i32 to i64
        %v6_2 = arith.addi %v3_0, %10 : i64
        %11 = arith.extsi %v4_3 : i32 to i64
        %v6_3 = arith.addi %v3_0, %11 : i64
        %12 = arith.sitofp %value : i32 to f32
        %s7 = arith.addf %12, %cst : f32
        %13 = arith.andi %lane, %c24_i32 : i32
        %14 = arith.cmpi eq, %13, %c0_i32 : i32
        scf.if %14 {
          %15 = llvm.getelementptr %out[%v6_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s7, %15 : f32, !llvm.ptr
          %16 = llvm.getelementptr %out[%v6_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s7, %16 : f32, !llvm.ptr
          %17 = llvm.getelementptr %out[%v6_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s7, %17 : f32, !llvm.ptr
          %18 = llvm.getelementptr %out[%v6_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %s7, %18 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

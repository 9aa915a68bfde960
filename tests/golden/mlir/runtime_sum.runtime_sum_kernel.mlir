module attributes {gpu.container_module} {
  gpu.module @runtime_sum_kernel_module {
    gpu.func @runtime_sum_kernel(%x: !llvm.ptr, %out: !llvm.ptr, %K: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c0_i64 = arith.constant 0 : i64
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.addi %3, %slot : i32
      %5 = arith.cmpi slt, %4, %mt_grid_x : i32
      scf.if %5 {
        %6 = scf.for %i1 = %c0_i32 to %K step %c1_i32 iter_args(%c0 = %cst) -> (f32)  : i32 {
          %s2 = arith.extsi %i1 : i32 to i64
          %10 = llvm.getelementptr %x[%s2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %s3 = llvm.load %10 : !llvm.ptr -> f32
          %s4 = arith.addf %c0, %s3 : f32
          scf.yield %s4 : f32
        }
        %7 = arith.cmpi eq, %lane, %c0_i32 : i32
        %8 = arith.cmpi eq, %c0_i32, %c0_i32 : i32
        %9 = arith.andi %7, %8 : i1
        scf.if %9 {
          %10 = llvm.getelementptr %out[%c0_i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %6, %10 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

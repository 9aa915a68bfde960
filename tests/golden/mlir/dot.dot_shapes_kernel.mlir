module attributes {gpu.container_module} {
  gpu.module @dot_shapes_kernel_module {
    llvm.mlir.global internal @mt_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<3072 x i8>
    gpu.func @dot_shapes_kernel(%out: !llvm.ptr, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c3_i32 = arith.constant 3 : i32
      %c7_i32 = arith.constant 7 : i32
      %c4_i32 = arith.constant 4 : i32
      %c-1_i32 = arith.constant -1 : i32
      %c64_i32 = arith.constant 64 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c128_i32 = arith.constant 128 : i32
      %c1024_i32 = arith.constant 1024 : i32
      %c96_i32 = arith.constant 96 : i32
      %c16_i32 = arith.constant 16 : i32
      %c1_i32 = arith.constant 1 : i32
      %c8_i32 = arith.constant 8 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.shrsi %lane, %c3_i32 : i32
      %base3 = arith.andi %2, %c3_i32 : i32
      %base4 = arith.andi %lane, %c7_i32 : i32
      %3 = nvvm.read.ptx.sreg.ctaid.x : i32
      %4 = arith.muli %3, %c4_i32 : i32
      %5 = arith.addi %4, %slot : i32
      %6 = arith.cmpi slt, %5, %mt_grid_x : i32
      scf.if %6 {
        nvvm.bar.warp.sync %c-1_i32 : i32
        %7 = arith.cmpi slt, %lane, %c64_i32 : i32
        scf.if %7 {
          %20 = arith.muli %slot, %c64_i32 : i32
          %21 = arith.addi %20, %lane : i32
          %22 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %23 = llvm.getelementptr %22[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %24 = llvm.getelementptr %23[%21] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %24 : f32, !llvm.ptr<3>
        }
        %8 = arith.addi %lane, %c32_i32 : i32
        %9 = arith.cmpi slt, %8, %c64_i32 : i32
        scf.if %9 {
          %20 = arith.addi %lane, %c32_i32 : i32
          %21 = arith.muli %slot, %c64_i32 : i32
          %22 = arith.addi %21, %20 : i32
          %23 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %24 = llvm.getelementptr %23[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %25 = llvm.getelementptr %24[%22] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %25 : f32, !llvm.ptr<3>
        }
        %10 = arith.cmpi slt, %lane, %c128_i32 : i32
        scf.if %10 {
          %20 = arith.muli %slot, %c128_i32 : i32
          %21 = arith.addi %20, %lane : i32
          %22 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %23 = llvm.getelementptr %22[%c1024_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %24 = llvm.getelementptr %23[%21] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %24 : f32, !llvm.ptr<3>
        }
        %11 = arith.addi %lane, %c32_i32 : i32
        %12 = arith.cmpi slt, %11, %c128_i32 : i32
        scf.if %12 {
          %20 = arith.addi %lane, %c32_i32 : i32
          %21 = arith.muli %slot, %c128_i32 : i32
          %22 = arith.addi %21, %20 : i32
          %23 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %24 = llvm.getelementptr %23[%c1024_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %25 = llvm.getelementptr %24[%22] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %25 : f32, !llvm.ptr<3>
        }
        %13 = arith.addi %lane, %c64_i32 : i32
        %14 = arith.cmpi slt, %13, %c128_i32 : i32
        scf.if %14 {
          %20 = arith.addi %lane, %c64_i32 : i32
          %21 = arith.muli %slot, %c128_i32 : i32
          %22 = arith.addi %21, %20 : i32
          %23 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %24 = llvm.getelementptr %23[%c1024_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %25 = llvm.getelementptr %24[%22] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %25 : f32, !llvm.ptr<3>
        }
        %15 = arith.addi %lane, %c96_i32 : i32
        %16 = arith.cmpi slt, %15, %c128_i32 : i32
        scf.if %16 {
          %20 = arith.addi %lane, %c96_i32 : i32
          %21 = arith.muli %slot, %c128_i32 : i32
          %22 = arith.addi %21, %20 : i32
          %23 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %24 = llvm.getelementptr %23[%c1024_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %25 = llvm.getelementptr %24[%22] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %25 : f32, !llvm.ptr<3>
        }
        nvvm.bar.warp.sync %c-1_i32 : i32
        %17 = scf.for %k5 = %c0_i32 to %c16_i32 step %c1_i32 iter_args(%acc2_0 = %cst) -> (f32)  : i32 {
          %20 = arith.muli %k5, %c4_i32 : i32
          %21 = arith.addi %20, %base3 : i32
          %22 = arith.muli %slot, %c64_i32 : i32
          %23 = arith.addi %22, %21 : i32
          %24 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %25 = llvm.getelementptr %24[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %26 = llvm.getelementptr %25[%23] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %a6_0 = llvm.load %26 : !llvm.ptr<3> -> f32
          %27 = arith.muli %k5, %c8_i32 : i32
          %28 = arith.addi %27, %base4 : i32
          %29 = arith.muli %slot, %c128_i32 : i32
          %30 = arith.addi %29, %28 : i32
          %31 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %32 = llvm.getelementptr %31[%c1024_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %33 = llvm.getelementptr %32[%30] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %b7_0 = llvm.load %33 : !llvm.ptr<3> -> f32
          %acc2_0_0 = math.fma %a6_0, %b7_0, %acc2_0 : f32
          scf.yield %acc2_0_0 : f32
        }
        %v9_0 = arith.muli %base3, %c8_i32 : i32
        %v10_0 = arith.extsi %v9_0 : i32 to i64
        %18 = arith.extsi %base4 : i32 to i64
        %v12_0 = arith.addi %v10_0, %18 : i64
        %19 = llvm.getelementptr %out[%v12_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %17, %19 : f32, !llvm.ptr
      }
      gpu.return
    }
  }
}

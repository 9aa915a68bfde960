module attributes {gpu.container_module} {
  gpu.module @dot_shapes_kernel_module {
    llvm.mlir.global internal @mt_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<3328 x i8>
    gpu.func @dot_shapes_kernel(%out: !llvm.ptr, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c3_i32 = arith.constant 3 : i32
      %c7_i32 = arith.constant 7 : i32
      %c4_i32 = arith.constant 4 : i32
      %c-1_i32 = arith.constant -1 : i32
      %c80_i32 = arith.constant 80 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c1280_i32 = arith.constant 1280 : i32
      %c96_i32 = arith.constant 96 : i32
      %c16_i32 = arith.constant 16 : i32
      %c20_i32 = arith.constant 20 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
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
        %7 = arith.cmpi slt, %lane, %c80_i32 : i32
        scf.if %7 {
          %22 = arith.muli %slot, %c80_i32 : i32
          %23 = arith.addi %22, %lane : i32
          %24 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %25 = llvm.getelementptr %24[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %26 = llvm.getelementptr %25[%23] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %26 : f32, !llvm.ptr<3>
        }
        %8 = arith.addi %lane, %c32_i32 : i32
        %9 = arith.cmpi slt, %8, %c80_i32 : i32
        scf.if %9 {
          %22 = arith.addi %lane, %c32_i32 : i32
          %23 = arith.muli %slot, %c80_i32 : i32
          %24 = arith.addi %23, %22 : i32
          %25 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %26 = llvm.getelementptr %25[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %27 = llvm.getelementptr %26[%24] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %27 : f32, !llvm.ptr<3>
        }
        %10 = arith.addi %lane, %c64_i32 : i32
        %11 = arith.cmpi slt, %10, %c80_i32 : i32
        scf.if %11 {
          %22 = arith.addi %lane, %c64_i32 : i32
          %23 = arith.muli %slot, %c80_i32 : i32
          %24 = arith.addi %23, %22 : i32
          %25 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %26 = llvm.getelementptr %25[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %27 = llvm.getelementptr %26[%24] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %27 : f32, !llvm.ptr<3>
        }
        %12 = arith.cmpi slt, %lane, %c128_i32 : i32
        scf.if %12 {
          %22 = arith.muli %slot, %c128_i32 : i32
          %23 = arith.addi %22, %lane : i32
          %24 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %25 = llvm.getelementptr %24[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %26 = llvm.getelementptr %25[%23] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %26 : f32, !llvm.ptr<3>
        }
        %13 = arith.addi %lane, %c32_i32 : i32
        %14 = arith.cmpi slt, %13, %c128_i32 : i32
        scf.if %14 {
          %22 = arith.addi %lane, %c32_i32 : i32
          %23 = arith.muli %slot, %c128_i32 : i32
          %24 = arith.addi %23, %22 : i32
          %25 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %26 = llvm.getelementptr %25[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %27 = llvm.getelementptr %26[%24] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %27 : f32, !llvm.ptr<3>
        }
        %15 = arith.addi %lane, %c64_i32 : i32
        %16 = arith.cmpi slt, %15, %c128_i32 : i32
        scf.if %16 {
          %22 = arith.addi %lane, %c64_i32 : i32
          %23 = arith.muli %slot, %c128_i32 : i32
          %24 = arith.addi %23, %22 : i32
          %25 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %26 = llvm.getelementptr %25[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %27 = llvm.getelementptr %26[%24] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %27 : f32, !llvm.ptr<3>
        }
        %17 = arith.addi %lane, %c96_i32 : i32
        %18 = arith.cmpi slt, %17, %c128_i32 : i32
        scf.if %18 {
          %22 = arith.addi %lane, %c96_i32 : i32
          %23 = arith.muli %slot, %c128_i32 : i32
          %24 = arith.addi %23, %22 : i32
          %25 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %26 = llvm.getelementptr %25[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %27 = llvm.getelementptr %26[%24] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %cst, %27 : f32, !llvm.ptr<3>
        }
        nvvm.bar.warp.sync %c-1_i32 : i32
        %19 = scf.for %k5 = %c0_i32 to %c16_i32 step %c4_i32 iter_args(%acc2_0 = %cst) -> (f32)  : i32 {
          %22 = arith.muli %base3, %c20_i32 : i32
          %23 = arith.addi %22, %k5 : i32
          %24 = arith.muli %slot, %c80_i32 : i32
          %25 = arith.addi %24, %23 : i32
          %26 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %27 = llvm.getelementptr %26[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %28 = llvm.getelementptr %27[%25] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %29 = llvm.load %28 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
          %a6_0 = llvm.extractelement %29[%c0_i32 : i32] : vector<4xf32>
          %a6_1 = llvm.extractelement %29[%c1_i32 : i32] : vector<4xf32>
          %a6_2 = llvm.extractelement %29[%c2_i32 : i32] : vector<4xf32>
          %a6_3 = llvm.extractelement %29[%c3_i32 : i32] : vector<4xf32>
          %30 = arith.muli %k5, %c8_i32 : i32
          %31 = arith.muli %slot, %c128_i32 : i32
          %32 = arith.addi %31, %30 : i32
          %33 = arith.addi %32, %base4 : i32
          %34 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %35 = llvm.getelementptr %34[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %36 = llvm.getelementptr %35[%33] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %b7_0 = llvm.load %36 : !llvm.ptr<3> -> f32
          %acc2_0_0 = math.fma %a6_0, %b7_0, %acc2_0 : f32
          %37 = arith.addi %k5, %c1_i32 : i32
          %38 = arith.muli %37, %c8_i32 : i32
          %39 = arith.muli %slot, %c128_i32 : i32
          %40 = arith.addi %39, %38 : i32
          %41 = arith.addi %40, %base4 : i32
          %42 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %43 = llvm.getelementptr %42[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %44 = llvm.getelementptr %43[%41] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %b7_0_1 = llvm.load %44 : !llvm.ptr<3> -> f32
          %acc2_0_2 = math.fma %a6_1, %b7_0_1, %acc2_0_0 : f32
          %45 = arith.addi %k5, %c2_i32 : i32
          %46 = arith.muli %45, %c8_i32 : i32
          %47 = arith.muli %slot, %c128_i32 : i32
          %48 = arith.addi %47, %46 : i32
          %49 = arith.addi %48, %base4 : i32
          %50 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %51 = llvm.getelementptr %50[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %52 = llvm.getelementptr %51[%49] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %b7_0_3 = llvm.load %52 : !llvm.ptr<3> -> f32
          %acc2_0_4 = math.fma %a6_2, %b7_0_3, %acc2_0_2 : f32
          %53 = arith.addi %k5, %c3_i32 : i32
          %54 = arith.muli %53, %c8_i32 : i32
          %55 = arith.muli %slot, %c128_i32 : i32
          %56 = arith.addi %55, %54 : i32
          %57 = arith.addi %56, %base4 : i32
          %58 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %59 = llvm.getelementptr %58[%c1280_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %60 = llvm.getelementptr %59[%57] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %b7_0_5 = llvm.load %60 : !llvm.ptr<3> -> f32
          %acc2_0_6 = math.fma %a6_3, %b7_0_5, %acc2_0_4 : f32
          scf.yield %acc2_0_6 : f32
        }
        %v9_0 = arith.muli %base3, %c8_i32 : i32
        %v10_0 = arith.extsi %v9_0 : i32 to i64
        %20 = arith.extsi %base4 : i32 to i64
        %v12_0 = arith.addi %v10_0, %20 : i64
        %21 = llvm.getelementptr %out[%v12_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %19, %21 : f32, !llvm.ptr
      }
      gpu.return
    }
  }
}

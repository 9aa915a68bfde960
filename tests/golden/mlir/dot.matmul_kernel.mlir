module attributes {gpu.container_module} {
  gpu.module @matmul_kernel_module {
    llvm.mlir.global internal @mt_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4096 x i8>
    gpu.func @matmul_kernel(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr, %M: i32, %N: i32, %K: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c7_i32 = arith.constant 7 : i32
      %c2_i32 = arith.constant 2 : i32
      %c4_i32 = arith.constant 4 : i32
      %c3_i32 = arith.constant 3 : i32
      %c15_i32 = arith.constant 15 : i32
      %c1_i32 = arith.constant 1 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c0_i32 = arith.constant 0 : i32
      %c16_i32 = arith.constant 16 : i32
      %c8_i32 = arith.constant 8 : i32
      %c-1_i32 = arith.constant -1 : i32
      %c128_i32 = arith.constant 128 : i32
      %c2048_i32 = arith.constant 2048 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.shrsi %lane, %c2_i32 : i32
      %base6 = arith.andi %2, %c7_i32 : i32
      %3 = arith.andi %lane, %c3_i32 : i32
      %base11 = arith.muli %3, %c4_i32 : i32
      %4 = arith.shrsi %lane, %c1_i32 : i32
      %base20 = arith.andi %4, %c15_i32 : i32
      %5 = arith.andi %lane, %c1_i32 : i32
      %base25 = arith.muli %5, %c4_i32 : i32
      %6 = arith.shrsi %lane, %c3_i32 : i32
      %7 = arith.andi %6, %c3_i32 : i32
      %base35 = arith.muli %7, %c2_i32 : i32
      %base36 = arith.andi %lane, %c7_i32 : i32
      %8 = nvvm.read.ptx.sreg.ctaid.x : i32
      %9 = arith.muli %8, %c4_i32 : i32
      %10 = arith.addi %9, %slot : i32
      %11 = arith.cmpi slt, %10, %mt_grid_x : i32
      scf.if %11 {
        %12 = nvvm.read.ptx.sreg.ctaid.x : i32
        %13 = arith.muli %12, %c4_i32 : i32
        %s0 = arith.addi %13, %slot : i32
        %s1 = nvvm.read.ptx.sreg.ctaid.y : i32
        %14:2 = scf.for %i3 = %c0_i32 to %K step %c16_i32 iter_args(%c2_0 = %cst, %c2_1 = %cst) -> (f32, f32)  : i32 {
          %s4 = arith.muli %s0, %c8_i32 : i32
          %v7_0 = arith.addi %s4, %base6 : i32
          %v8_0 = arith.muli %v7_0, %K : i32
          %v9_0 = arith.extsi %v8_0 : i32 to i64
          %v10_1 = arith.addi %base11, %c1_i32 : i32
          %v10_2 = arith.addi %base11, %c2_i32 : i32
          %v10_3 = arith.addi %base11, %c3_i32 : i32
          %v12_0 = arith.addi %i3, %base11 : i32
          %v12_1 = arith.addi %i3, %v10_1 : i32
          %v12_2 = arith.addi %i3, %v10_2 : i32
          %v12_3 = arith.addi %i3, %v10_3 : i32
          %17 = arith.extsi %v12_0 : i32 to i64
          %v13_0 = arith.addi %v9_0, %17 : i64
          %18 = arith.extsi %v12_1 : i32 to i64
          %v13_1 = arith.addi %v9_0, %18 : i64
          %19 = arith.extsi %v12_2 : i32 to i64
          %v13_2 = arith.addi %v9_0, %19 : i64
          %20 = arith.extsi %v12_3 : i32 to i64
          %v13_3 = arith.addi %v9_0, %20 : i64
          %v14_0 = arith.cmpi slt, %v7_0, %M : i32
          %v15_0 = arith.cmpi slt, %v12_0, %K : i32
          %v15_1 = arith.cmpi slt, %v12_1, %K : i32
          %v15_2 = arith.cmpi slt, %v12_2, %K : i32
          %v15_3 = arith.cmpi slt, %v12_3, %K : i32
          %v16_0 = arith.andi %v14_0, %v15_0 : i1
          %v16_1 = arith.andi %v14_0, %v15_1 : i1
          %v16_2 = arith.andi %v14_0, %v15_2 : i1
          %v16_3 = arith.andi %v14_0, %v15_3 : i1
          %v17_0 = scf.if %v16_0 -> (f32) {
            %88 = llvm.getelementptr %a[%v13_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %v17_1 = scf.if %v16_1 -> (f32) {
            %88 = llvm.getelementptr %a[%v13_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %v17_2 = scf.if %v16_2 -> (f32) {
            %88 = llvm.getelementptr %a[%v13_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %v17_3 = scf.if %v16_3 -> (f32) {
            %88 = llvm.getelementptr %a[%v13_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %s18 = arith.muli %s1, %c8_i32 : i32
          %v21_0 = arith.addi %i3, %base20 : i32
          %v22_0 = arith.muli %v21_0, %N : i32
          %v23_0 = arith.extsi %v22_0 : i32 to i64
          %v24_1 = arith.addi %base25, %c1_i32 : i32
          %v24_2 = arith.addi %base25, %c2_i32 : i32
          %v24_3 = arith.addi %base25, %c3_i32 : i32
          %v26_0 = arith.addi %s18, %base25 : i32
          %v26_1 = arith.addi %s18, %v24_1 : i32
          %v26_2 = arith.addi %s18, %v24_2 : i32
          %v26_3 = arith.addi %s18, %v24_3 : i32
          %21 = arith.extsi %v26_0 : i32 to i64
          %v27_0 = arith.addi %v23_0, %21 : i64
          %22 = arith.extsi %v26_1 : i32 to i64
          %v27_1 = arith.addi %v23_0, %22 : i64
          %23 = arith.extsi %v26_2 : i32 to i64
          %v27_2 = arith.addi %v23_0, %23 : i64
          %24 = arith.extsi %v26_3 : i32 to i64
          %v27_3 = arith.addi %v23_0, %24 : i64
          %v28_0 = arith.cmpi slt, %v21_0, %K : i32
          %v29_0 = arith.cmpi slt, %v26_0, %N : i32
          %v29_1 = arith.cmpi slt, %v26_1, %N : i32
          %v29_2 = arith.cmpi slt, %v26_2, %N : i32
          %v29_3 = arith.cmpi slt, %v26_3, %N : i32
          %v30_0 = arith.andi %v28_0, %v29_0 : i1
          %v30_1 = arith.andi %v28_0, %v29_1 : i1
          %v30_2 = arith.andi %v28_0, %v29_2 : i1
          %v30_3 = arith.andi %v28_0, %v29_3 : i1
          %v31_0 = scf.if %v30_0 -> (f32) {
            %88 = llvm.getelementptr %b[%v27_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %v31_1 = scf.if %v30_1 -> (f32) {
            %88 = llvm.getelementptr %b[%v27_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %v31_2 = scf.if %v30_2 -> (f32) {
            %88 = llvm.getelementptr %b[%v27_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          %v31_3 = scf.if %v30_3 -> (f32) {
            %88 = llvm.getelementptr %b[%v27_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %89 = llvm.load %88 : !llvm.ptr -> f32
            scf.yield %89 : f32
          } else {
            scf.yield %cst : f32
          }
          nvvm.bar.warp.sync %c-1_i32 : i32
          %25 = arith.muli %base11, %c8_i32 : i32
          %26 = arith.addi %25, %base6 : i32
          %27 = arith.muli %slot, %c128_i32 : i32
          %28 = arith.addi %27, %26 : i32
          %29 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %30 = llvm.getelementptr %29[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %31 = llvm.getelementptr %30[%28] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v17_0, %31 : f32, !llvm.ptr<3>
          %32 = arith.addi %base11, %c1_i32 : i32
          %33 = arith.muli %32, %c8_i32 : i32
          %34 = arith.addi %33, %base6 : i32
          %35 = arith.muli %slot, %c128_i32 : i32
          %36 = arith.addi %35, %34 : i32
          %37 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %38 = llvm.getelementptr %37[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %39 = llvm.getelementptr %38[%36] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v17_1, %39 : f32, !llvm.ptr<3>
          %40 = arith.addi %base11, %c2_i32 : i32
          %41 = arith.muli %40, %c8_i32 : i32
          %42 = arith.addi %41, %base6 : i32
          %43 = arith.muli %slot, %c128_i32 : i32
          %44 = arith.addi %43, %42 : i32
          %45 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %46 = llvm.getelementptr %45[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %47 = llvm.getelementptr %46[%44] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v17_2, %47 : f32, !llvm.ptr<3>
          %48 = arith.addi %base11, %c3_i32 : i32
          %49 = arith.muli %48, %c8_i32 : i32
          %50 = arith.addi %49, %base6 : i32
          %51 = arith.muli %slot, %c128_i32 : i32
          %52 = arith.addi %51, %50 : i32
          %53 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %54 = llvm.getelementptr %53[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %55 = llvm.getelementptr %54[%52] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v17_3, %55 : f32, !llvm.ptr<3>
          %56 = arith.muli %base20, %c8_i32 : i32
          %57 = arith.addi %56, %base25 : i32
          %58 = arith.muli %slot, %c128_i32 : i32
          %59 = arith.addi %58, %57 : i32
          %60 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %61 = llvm.getelementptr %60[%c2048_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %62 = llvm.getelementptr %61[%59] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v31_0, %62 : f32, !llvm.ptr<3>
          %63 = arith.addi %base25, %c1_i32 : i32
          %64 = arith.muli %base20, %c8_i32 : i32
          %65 = arith.addi %64, %63 : i32
          %66 = arith.muli %slot, %c128_i32 : i32
          %67 = arith.addi %66, %65 : i32
          %68 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %69 = llvm.getelementptr %68[%c2048_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %70 = llvm.getelementptr %69[%67] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v31_1, %70 : f32, !llvm.ptr<3>
          %71 = arith.addi %base25, %c2_i32 : i32
          %72 = arith.muli %base20, %c8_i32 : i32
          %73 = arith.addi %72, %71 : i32
          %74 = arith.muli %slot, %c128_i32 : i32
          %75 = arith.addi %74, %73 : i32
          %76 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %77 = llvm.getelementptr %76[%c2048_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %78 = llvm.getelementptr %77[%75] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v31_2, %78 : f32, !llvm.ptr<3>
          %79 = arith.addi %base25, %c3_i32 : i32
          %80 = arith.muli %base20, %c8_i32 : i32
          %81 = arith.addi %80, %79 : i32
          %82 = arith.muli %slot, %c128_i32 : i32
          %83 = arith.addi %82, %81 : i32
          %84 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %85 = llvm.getelementptr %84[%c2048_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %86 = llvm.getelementptr %85[%83] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v31_3, %86 : f32, !llvm.ptr<3>
          nvvm.bar.warp.sync %c-1_i32 : i32
          %87:2 = scf.for %k37 = %c0_i32 to %c16_i32 step %c1_i32 iter_args(%acc34_0 = %cst, %acc34_1 = %cst) -> (f32, f32)  : i32 {
            %88 = arith.muli %k37, %c8_i32 : i32
            %89 = arith.addi %88, %base35 : i32
            %90 = arith.muli %slot, %c128_i32 : i32
            %91 = arith.addi %90, %89 : i32
            %92 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %93 = llvm.getelementptr %92[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %94 = llvm.getelementptr %93[%91] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %a38_0 = llvm.load %94 : !llvm.ptr<3> -> f32
            %95 = arith.muli %k37, %c8_i32 : i32
            %96 = arith.addi %95, %base35 : i32
            %97 = arith.muli %slot, %c128_i32 : i32
            %98 = arith.addi %97, %96 : i32
            %99 = arith.addi %98, %c1_i32 : i32
            %100 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %101 = llvm.getelementptr %100[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %102 = llvm.getelementptr %101[%99] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %a38_1 = llvm.load %102 : !llvm.ptr<3> -> f32
            %103 = arith.muli %k37, %c8_i32 : i32
            %104 = arith.addi %103, %base36 : i32
            %105 = arith.muli %slot, %c128_i32 : i32
            %106 = arith.addi %105, %104 : i32
            %107 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %108 = llvm.getelementptr %107[%c2048_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %109 = llvm.getelementptr %108[%106] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %b39_0 = llvm.load %109 : !llvm.ptr<3> -> f32
            %acc34_0_0 = math.fma %a38_0, %b39_0, %acc34_0 : f32
            %acc34_1_1 = math.fma %a38_1, %b39_0, %acc34_1 : f32
            scf.yield %acc34_0_0, %acc34_1_1 : f32, f32
          }
          %v40_0 = arith.addf %c2_0, %87#0 : f32
          %v40_1 = arith.addf %c2_1, %87#1 : f32
          scf.yield %v40_0, %v40_1 : f32, f32
        }
        %s42 = arith.muli %s0, %c8_i32 : i32
        %s43 = arith.muli %s1, %c8_i32 : i32
        %v44_1 = arith.addi %base35, %c1_i32 : i32
        %v45_0 = arith.addi %s42, %base35 : i32
        %v45_1 = arith.addi %s42, %v44_1 : i32
        %v46_0 = arith.muli %v45_0, %N : i32
        %v46_1 = arith.muli %v45_1, %N : i32
        %v47_0 = arith.extsi %v46_0 : i32 to i64
        %v47_1 = arith.extsi %v46_1 : i32 to i64
        %v49_0 = arith.addi %s43, %base36 : i32
        %15 = arith.extsi %v49_0 : i32 to i64
        %v50_0 = arith.addi %v47_0, %15 : i64
        %16 = arith.extsi %v49_0 : i32 to i64
        %v50_1 = arith.addi %v47_1, %16 : i64
        %v51_0 = arith.cmpi slt, %v45_0, %M : i32
        %v51_1 = arith.cmpi slt, %v45_1, %M : i32
        %v52_0 = arith.cmpi slt, %v49_0, %N : i32
        %v53_0 = arith.andi %v51_0, %v52_0 : i1
        %v53_1 = arith.andi %v51_1, %v52_0 : i1
        scf.if %v53_0 {
          %17 = llvm.getelementptr %c[%v50_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %14#0, %17 : f32, !llvm.ptr
        }
        scf.if %v53_1 {
          %17 = llvm.getelementptr %c[%v50_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %14#1, %17 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

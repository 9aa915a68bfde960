module attributes {gpu.container_module} {
  gpu.module @matmul_kernel_module {
    llvm.mlir.global internal @mt_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4608 x i8>
    gpu.func @matmul_kernel(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr, %M: i32, %N: i32, %K: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c7_i32 = arith.constant 7 : i32
      %c2_i32 = arith.constant 2 : i32
      %c4_i32 = arith.constant 4 : i32
      %c3_i32 = arith.constant 3 : i32
      %c15_i32 = arith.constant 15 : i32
      %c1_i32 = arith.constant 1 : i32
      %c0_i32 = arith.constant 0 : i32
      %c8_i32 = arith.constant 8 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c16_i32 = arith.constant 16 : i32
      %c-1_i32 = arith.constant -1 : i32
      %c20_i32 = arith.constant 20 : i32
      %c160_i32 = arith.constant 160 : i32
      %c128_i32 = arith.constant 128 : i32
      %c2560_i32 = arith.constant 2560 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.shrsi %lane, %c2_i32 : i32
      %base5 = arith.andi %2, %c7_i32 : i32
      %3 = arith.andi %lane, %c3_i32 : i32
      %base10 = arith.muli %3, %c4_i32 : i32
      %4 = arith.shrsi %lane, %c1_i32 : i32
      %base20 = arith.andi %4, %c15_i32 : i32
      %5 = arith.andi %lane, %c1_i32 : i32
      %base25 = arith.muli %5, %c4_i32 : i32
      %6 = arith.shrsi %lane, %c3_i32 : i32
      %7 = arith.andi %6, %c3_i32 : i32
      %base56 = arith.muli %7, %c2_i32 : i32
      %base57 = arith.andi %lane, %c7_i32 : i32
      %8 = nvvm.read.ptx.sreg.ctaid.x : i32
      %9 = arith.muli %8, %c4_i32 : i32
      %10 = arith.addi %9, %slot : i32
      %11 = arith.cmpi slt, %10, %mt_grid_x : i32
      scf.if %11 {
        %12 = nvvm.read.ptx.sreg.ctaid.x : i32
        %13 = arith.muli %12, %c4_i32 : i32
        %s0 = arith.addi %13, %slot : i32
        %s1 = nvvm.read.ptx.sreg.ctaid.y : i32
        %s2 = arith.cmpi slt, %c0_i32, %K : i32
        %s3 = arith.muli %s0, %c8_i32 : i32
        %v6_0 = arith.addi %s3, %base5 : i32
        %v7_0 = arith.muli %v6_0, %K : i32
        %v8_0 = arith.extsi %v7_0 : i32 to i64
        %v9_1 = arith.addi %base10, %c1_i32 : i32
        %v9_2 = arith.addi %base10, %c2_i32 : i32
        %v9_3 = arith.addi %base10, %c3_i32 : i32
        %v11_0 = arith.addi %c0_i32, %base10 : i32
        %v11_1 = arith.addi %c0_i32, %v9_1 : i32
        %v11_2 = arith.addi %c0_i32, %v9_2 : i32
        %v11_3 = arith.addi %c0_i32, %v9_3 : i32
        %14 = arith.extsi %v11_0 : i32 to i64
        %v12_0 = arith.addi %v8_0, %14 : i64
        %15 = arith.extsi %v11_1 : i32 to i64
        %v12_1 = arith.addi %v8_0, %15 : i64
        %16 = arith.extsi %v11_2 : i32 to i64
        %v12_2 = arith.addi %v8_0, %16 : i64
        %17 = arith.extsi %v11_3 : i32 to i64
        %v12_3 = arith.addi %v8_0, %17 : i64
        %v13_0 = arith.cmpi slt, %v6_0, %M : i32
        %v14_0 = arith.cmpi slt, %v11_0, %K : i32
        %v14_1 = arith.cmpi slt, %v11_1, %K : i32
        %v14_2 = arith.cmpi slt, %v11_2, %K : i32
        %v14_3 = arith.cmpi slt, %v11_3, %K : i32
        %v15_0 = arith.andi %v13_0, %v14_0 : i1
        %v15_1 = arith.andi %v13_0, %v14_1 : i1
        %v15_2 = arith.andi %v13_0, %v14_2 : i1
        %v15_3 = arith.andi %v13_0, %v14_3 : i1
        %v16_0 = arith.andi %v15_0, %s2 : i1
        %v16_1 = arith.andi %v15_1, %s2 : i1
        %v16_2 = arith.andi %v15_2, %s2 : i1
        %v16_3 = arith.andi %v15_3, %s2 : i1
        %v17_0 = scf.if %v16_0 -> (f32) {
          %25 = llvm.getelementptr %a[%v12_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %v17_1 = scf.if %v16_1 -> (f32) {
          %25 = llvm.getelementptr %a[%v12_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %v17_2 = scf.if %v16_2 -> (f32) {
          %25 = llvm.getelementptr %a[%v12_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %v17_3 = scf.if %v16_3 -> (f32) {
          %25 = llvm.getelementptr %a[%v12_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %s18 = arith.muli %s1, %c8_i32 : i32
        %v21_0 = arith.addi %c0_i32, %base20 : i32
        %v22_0 = arith.muli %v21_0, %N : i32
        %v23_0 = arith.extsi %v22_0 : i32 to i64
        %v24_1 = arith.addi %base25, %c1_i32 : i32
        %v24_2 = arith.addi %base25, %c2_i32 : i32
        %v24_3 = arith.addi %base25, %c3_i32 : i32
        %v26_0 = arith.addi %s18, %base25 : i32
        %v26_1 = arith.addi %s18, %v24_1 : i32
        %v26_2 = arith.addi %s18, %v24_2 : i32
        %v26_3 = arith.addi %s18, %v24_3 : i32
        %18 = arith.extsi %v26_0 : i32 to i64
        %v27_0 = arith.addi %v23_0, %18 : i64
        %19 = arith.extsi %v26_1 : i32 to i64
        %v27_1 = arith.addi %v23_0, %19 : i64
        %20 = arith.extsi %v26_2 : i32 to i64
        %v27_2 = arith.addi %v23_0, %20 : i64
        %21 = arith.extsi %v26_3 : i32 to i64
        %v27_3 = arith.addi %v23_0, %21 : i64
        %v28_0 = arith.cmpi slt, %v21_0, %K : i32
        %v29_0 = arith.cmpi slt, %v26_0, %N : i32
        %v29_1 = arith.cmpi slt, %v26_1, %N : i32
        %v29_2 = arith.cmpi slt, %v26_2, %N : i32
        %v29_3 = arith.cmpi slt, %v26_3, %N : i32
        %v30_0 = arith.andi %v28_0, %v29_0 : i1
        %v30_1 = arith.andi %v28_0, %v29_1 : i1
        %v30_2 = arith.andi %v28_0, %v29_2 : i1
        %v30_3 = arith.andi %v28_0, %v29_3 : i1
        %v31_0 = arith.andi %v30_0, %s2 : i1
        %v31_1 = arith.andi %v30_1, %s2 : i1
        %v31_2 = arith.andi %v30_2, %s2 : i1
        %v31_3 = arith.andi %v30_3, %s2 : i1
        %v32_0 = scf.if %v31_0 -> (f32) {
          %25 = llvm.getelementptr %b[%v27_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %v32_1 = scf.if %v31_1 -> (f32) {
          %25 = llvm.getelementptr %b[%v27_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %v32_2 = scf.if %v31_2 -> (f32) {
          %25 = llvm.getelementptr %b[%v27_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %v32_3 = scf.if %v31_3 -> (f32) {
          %25 = llvm.getelementptr %b[%v27_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %26 = llvm.load %25 : !llvm.ptr -> f32
          scf.yield %26 : f32
        } else {
          scf.yield %cst : f32
        }
        %22:10 = scf.for %i36 = %c0_i32 to %K step %c16_i32 iter_args(%c33_0 = %cst, %c33_1 = %cst, %c34_0 = %v17_0, %c34_1 = %v17_1, %c34_2 = %v17_2, %c34_3 = %v17_3, %c35_0 = %v32_0, %c35_1 = %v32_1, %c35_2 = %v32_2, %c35_3 = %v32_3) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)  : i32 {
          %s37 = arith.addi %i36, %c16_i32 : i32
          %s38 = arith.cmpi slt, %s37, %K : i32
          %v39_0 = arith.addi %s37, %base10 : i32
          %v39_1 = arith.addi %s37, %v9_1 : i32
          %v39_2 = arith.addi %s37, %v9_2 : i32
          %v39_3 = arith.addi %s37, %v9_3 : i32
          %25 = arith.extsi %v39_0 : i32 to i64
          %v40_0 = arith.addi %v8_0, %25 : i64
          %26 = arith.extsi %v39_1 : i32 to i64
          %v40_1 = arith.addi %v8_0, %26 : i64
          %27 = arith.extsi %v39_2 : i32 to i64
          %v40_2 = arith.addi %v8_0, %27 : i64
          %28 = arith.extsi %v39_3 : i32 to i64
          %v40_3 = arith.addi %v8_0, %28 : i64
          %v41_0 = arith.cmpi slt, %v39_0, %K : i32
          %v41_1 = arith.cmpi slt, %v39_1, %K : i32
          %v41_2 = arith.cmpi slt, %v39_2, %K : i32
          %v41_3 = arith.cmpi slt, %v39_3, %K : i32
          %v42_0 = arith.andi %v13_0, %v41_0 : i1
          %v42_1 = arith.andi %v13_0, %v41_1 : i1
          %v42_2 = arith.andi %v13_0, %v41_2 : i1
          %v42_3 = arith.andi %v13_0, %v41_3 : i1
          %v43_0 = arith.andi %v42_0, %s38 : i1
          %v43_1 = arith.andi %v42_1, %s38 : i1
          %v43_2 = arith.andi %v42_2, %s38 : i1
          %v43_3 = arith.andi %v42_3, %s38 : i1
          %v44_0 = scf.if %v43_0 -> (f32) {
            %96 = llvm.getelementptr %a[%v40_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v44_1 = scf.if %v43_1 -> (f32) {
            %96 = llvm.getelementptr %a[%v40_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v44_2 = scf.if %v43_2 -> (f32) {
            %96 = llvm.getelementptr %a[%v40_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v44_3 = scf.if %v43_3 -> (f32) {
            %96 = llvm.getelementptr %a[%v40_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v45_0 = arith.addi %s37, %base20 : i32
          %v46_0 = arith.muli %v45_0, %N : i32
          %v47_0 = arith.extsi %v46_0 : i32 to i64
          %29 = arith.extsi %v26_0 : i32 to i64
          %v48_0 = arith.addi %v47_0, %29 : i64
          %30 = arith.extsi %v26_1 : i32 to i64
          %v48_1 = arith.addi %v47_0, %30 : i64
          %31 = arith.extsi %v26_2 : i32 to i64
          %v48_2 = arith.addi %v47_0, %31 : i64
          %32 = arith.extsi %v26_3 : i32 to i64
          %v48_3 = arith.addi %v47_0, %32 : i64
          %v49_0 = arith.cmpi slt, %v45_0, %K : i32
          %v50_0 = arith.andi %v49_0, %v29_0 : i1
          %v50_1 = arith.andi %v49_0, %v29_1 : i1
          %v50_2 = arith.andi %v49_0, %v29_2 : i1
          %v50_3 = arith.andi %v49_0, %v29_3 : i1
          %v51_0 = arith.andi %v50_0, %s38 : i1
          %v51_1 = arith.andi %v50_1, %s38 : i1
          %v51_2 = arith.andi %v50_2, %s38 : i1
          %v51_3 = arith.andi %v50_3, %s38 : i1
          %v52_0 = scf.if %v51_0 -> (f32) {
            %96 = llvm.getelementptr %b[%v48_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v52_1 = scf.if %v51_1 -> (f32) {
            %96 = llvm.getelementptr %b[%v48_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v52_2 = scf.if %v51_2 -> (f32) {
            %96 = llvm.getelementptr %b[%v48_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          %v52_3 = scf.if %v51_3 -> (f32) {
            %96 = llvm.getelementptr %b[%v48_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %97 = llvm.load %96 : !llvm.ptr -> f32
            scf.yield %97 : f32
          } else {
            scf.yield %cst : f32
          }
          nvvm.bar.warp.sync %c-1_i32 : i32
          %33 = arith.muli %base5, %c20_i32 : i32
          %34 = arith.addi %33, %base10 : i32
          %35 = arith.muli %slot, %c160_i32 : i32
          %36 = arith.addi %35, %34 : i32
          %37 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %38 = llvm.getelementptr %37[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %39 = llvm.getelementptr %38[%36] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c34_0, %39 : f32, !llvm.ptr<3>
          %40 = arith.addi %base10, %c1_i32 : i32
          %41 = arith.muli %base5, %c20_i32 : i32
          %42 = arith.addi %41, %40 : i32
          %43 = arith.muli %slot, %c160_i32 : i32
          %44 = arith.addi %43, %42 : i32
          %45 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %46 = llvm.getelementptr %45[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %47 = llvm.getelementptr %46[%44] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c34_1, %47 : f32, !llvm.ptr<3>
          %48 = arith.addi %base10, %c2_i32 : i32
          %49 = arith.muli %base5, %c20_i32 : i32
          %50 = arith.addi %49, %48 : i32
          %51 = arith.muli %slot, %c160_i32 : i32
          %52 = arith.addi %51, %50 : i32
          %53 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %54 = llvm.getelementptr %53[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %55 = llvm.getelementptr %54[%52] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c34_2, %55 : f32, !llvm.ptr<3>
          %56 = arith.addi %base10, %c3_i32 : i32
          %57 = arith.muli %base5, %c20_i32 : i32
          %58 = arith.addi %57, %56 : i32
          %59 = arith.muli %slot, %c160_i32 : i32
          %60 = arith.addi %59, %58 : i32
          %61 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %62 = llvm.getelementptr %61[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %63 = llvm.getelementptr %62[%60] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c34_3, %63 : f32, !llvm.ptr<3>
          %64 = arith.muli %base20, %c8_i32 : i32
          %65 = arith.addi %64, %base25 : i32
          %66 = arith.muli %slot, %c128_i32 : i32
          %67 = arith.addi %66, %65 : i32
          %68 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %69 = llvm.getelementptr %68[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %70 = llvm.getelementptr %69[%67] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c35_0, %70 : f32, !llvm.ptr<3>
          %71 = arith.addi %base25, %c1_i32 : i32
          %72 = arith.muli %base20, %c8_i32 : i32
          %73 = arith.addi %72, %71 : i32
          %74 = arith.muli %slot, %c128_i32 : i32
          %75 = arith.addi %74, %73 : i32
          %76 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %77 = llvm.getelementptr %76[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %78 = llvm.getelementptr %77[%75] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c35_1, %78 : f32, !llvm.ptr<3>
          %79 = arith.addi %base25, %c2_i32 : i32
          %80 = arith.muli %base20, %c8_i32 : i32
          %81 = arith.addi %80, %79 : i32
          %82 = arith.muli %slot, %c128_i32 : i32
          %83 = arith.addi %82, %81 : i32
          %84 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %85 = llvm.getelementptr %84[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %86 = llvm.getelementptr %85[%83] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c35_2, %86 : f32, !llvm.ptr<3>
          %87 = arith.addi %base25, %c3_i32 : i32
          %88 = arith.muli %base20, %c8_i32 : i32
          %89 = arith.addi %88, %87 : i32
          %90 = arith.muli %slot, %c128_i32 : i32
          %91 = arith.addi %90, %89 : i32
          %92 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %93 = llvm.getelementptr %92[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %94 = llvm.getelementptr %93[%91] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %c35_3, %94 : f32, !llvm.ptr<3>
          nvvm.bar.warp.sync %c-1_i32 : i32
          %95:2 = scf.for %k58 = %c0_i32 to %c16_i32 step %c4_i32 iter_args(%acc55_0 = %c33_0, %acc55_1 = %c33_1) -> (f32, f32)  : i32 {
            %96 = arith.muli %base56, %c20_i32 : i32
            %97 = arith.addi %96, %k58 : i32
            %98 = arith.muli %slot, %c160_i32 : i32
            %99 = arith.addi %98, %97 : i32
            %100 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %101 = llvm.getelementptr %100[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %102 = llvm.getelementptr %101[%99] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %103 = llvm.load %102 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %a59_0 = llvm.extractelement %103[%c0_i32 : i32] : vector<4xf32>
            %a59_1 = llvm.extractelement %103[%c1_i32 : i32] : vector<4xf32>
            %a59_2 = llvm.extractelement %103[%c2_i32 : i32] : vector<4xf32>
            %a59_3 = llvm.extractelement %103[%c3_i32 : i32] : vector<4xf32>
            %104 = arith.addi %base56, %c1_i32 : i32
            %105 = arith.muli %104, %c20_i32 : i32
            %106 = arith.addi %105, %k58 : i32
            %107 = arith.muli %slot, %c160_i32 : i32
            %108 = arith.addi %107, %106 : i32
            %109 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %110 = llvm.getelementptr %109[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %111 = llvm.getelementptr %110[%108] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %112 = llvm.load %111 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %a59_4 = llvm.extractelement %112[%c0_i32 : i32] : vector<4xf32>
            %a59_5 = llvm.extractelement %112[%c1_i32 : i32] : vector<4xf32>
            %a59_6 = llvm.extractelement %112[%c2_i32 : i32] : vector<4xf32>
            %a59_7 = llvm.extractelement %112[%c3_i32 : i32] : vector<4xf32>
            %113 = arith.muli %k58, %c8_i32 : i32
            %114 = arith.muli %slot, %c128_i32 : i32
            %115 = arith.addi %114, %113 : i32
            %116 = arith.addi %115, %base57 : i32
            %117 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %118 = llvm.getelementptr %117[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %119 = llvm.getelementptr %118[%116] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %b60_0 = llvm.load %119 : !llvm.ptr<3> -> f32
            %acc55_0_0 = math.fma %a59_0, %b60_0, %acc55_0 : f32
            %acc55_1_1 = math.fma %a59_4, %b60_0, %acc55_1 : f32
            %120 = arith.addi %k58, %c1_i32 : i32
            %121 = arith.muli %120, %c8_i32 : i32
            %122 = arith.muli %slot, %c128_i32 : i32
            %123 = arith.addi %122, %121 : i32
            %124 = arith.addi %123, %base57 : i32
            %125 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %126 = llvm.getelementptr %125[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %127 = llvm.getelementptr %126[%124] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %b60_0_2 = llvm.load %127 : !llvm.ptr<3> -> f32
            %acc55_0_3 = math.fma %a59_1, %b60_0_2, %acc55_0_0 : f32
            %acc55_1_4 = math.fma %a59_5, %b60_0_2, %acc55_1_1 : f32
            %128 = arith.addi %k58, %c2_i32 : i32
            %129 = arith.muli %128, %c8_i32 : i32
            %130 = arith.muli %slot, %c128_i32 : i32
            %131 = arith.addi %130, %129 : i32
            %132 = arith.addi %131, %base57 : i32
            %133 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %134 = llvm.getelementptr %133[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %135 = llvm.getelementptr %134[%132] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %b60_0_5 = llvm.load %135 : !llvm.ptr<3> -> f32
            %acc55_0_6 = math.fma %a59_2, %b60_0_5, %acc55_0_3 : f32
            %acc55_1_7 = math.fma %a59_6, %b60_0_5, %acc55_1_4 : f32
            %136 = arith.addi %k58, %c3_i32 : i32
            %137 = arith.muli %136, %c8_i32 : i32
            %138 = arith.muli %slot, %c128_i32 : i32
            %139 = arith.addi %138, %137 : i32
            %140 = arith.addi %139, %base57 : i32
            %141 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
            %142 = llvm.getelementptr %141[%c2560_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %143 = llvm.getelementptr %142[%140] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %b60_0_8 = llvm.load %143 : !llvm.ptr<3> -> f32
            %acc55_0_9 = math.fma %a59_3, %b60_0_8, %acc55_0_6 : f32
            %acc55_1_10 = math.fma %a59_7, %b60_0_8, %acc55_1_7 : f32
            scf.yield %acc55_0_9, %acc55_1_10 : f32, f32
          }
          scf.yield %95#0, %95#1, %v44_0, %v44_1, %v44_2, %v44_3, %v52_0, %v52_1, %v52_2, %v52_3 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
        }
        %v64_1 = arith.addi %base56, %c1_i32 : i32
        %v65_0 = arith.addi %s3, %base56 : i32
        %v65_1 = arith.addi %s3, %v64_1 : i32
        %v66_0 = arith.muli %v65_0, %N : i32
        %v66_1 = arith.muli %v65_1, %N : i32
        %v67_0 = arith.extsi %v66_0 : i32 to i64
        %v67_1 = arith.extsi %v66_1 : i32 to i64
        %v69_0 = arith.addi %s18, %base57 : i32
        %23 = arith.extsi %v69_0 : i32 to i64
        %v70_0 = arith.addi %v67_0, %23 : i64
        %24 = arith.extsi %v69_0 : i32 to i64
        %v70_1 = arith.addi %v67_1, %24 : i64
        %v71_0 = arith.cmpi slt, %v65_0, %M : i32
        %v71_1 = arith.cmpi slt, %v65_1, %M : i32
        %v72_0 = arith.cmpi slt, %v69_0, %N : i32
        %v73_0 = arith.andi %v71_0, %v72_0 : i1
        %v73_1 = arith.andi %v71_1, %v72_0 : i1
        scf.if %v73_0 {
          %25 = llvm.getelementptr %c[%v70_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %22#0, %25 : f32, !llvm.ptr
        }
        scf.if %v73_1 {
          %25 = llvm.getelementptr %c[%v70_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %22#1, %25 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

module attributes {gpu.container_module} {
  gpu.module @matmul_2d_kernel_module {
    llvm.mlir.global internal @mt_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
    gpu.func @matmul_2d_kernel(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr, %M: i32, %N: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c8_i32 = arith.constant 8 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c0_i32 = arith.constant 0 : i32
      %c2_i32 = arith.constant 2 : i32
      %c-1_i32 = arith.constant -1 : i32
      %c24_i32 = arith.constant 24 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %base5 = arith.andi %lane, %c3_i32 : i32
      %2 = arith.andi %lane, %c1_i32 : i32
      %base13 = arith.muli %2, %c4_i32 : i32
      %3 = arith.shrsi %lane, %c1_i32 : i32
      %base21 = arith.andi %3, %c3_i32 : i32
      %4 = nvvm.read.ptx.sreg.ctaid.x : i32
      %5 = arith.muli %4, %c4_i32 : i32
      %6 = arith.addi %5, %slot : i32
      %7 = arith.cmpi slt, %6, %mt_grid_x : i32
      scf.if %7 {
        %8 = nvvm.read.ptx.sreg.ctaid.x : i32
        %9 = arith.muli %8, %c4_i32 : i32
        %s0 = arith.addi %9, %slot : i32
        %s1 = arith.muli %s0, %c4_i32 : i32
        %s2 = nvvm.read.ptx.sreg.ctaid.y : i32
        %s3 = arith.muli %s2, %c8_i32 : i32
        %v6_0 = arith.addi %s1, %base5 : i32
        %v7_0 = arith.muli %v6_0, %c3_i32 : i32
        %v8_0 = arith.extsi %v7_0 : i32 to i64
        %v9_0 = arith.cmpi slt, %v6_0, %M : i32
        %v10_0 = scf.if %v9_0 -> (f32) {
          %46 = llvm.getelementptr %a[%v8_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %s11 = arith.muli %c0_i32, %N : i32
        %v12_1 = arith.addi %base13, %c1_i32 : i32
        %v12_2 = arith.addi %base13, %c2_i32 : i32
        %v12_3 = arith.addi %base13, %c3_i32 : i32
        %v14_0 = arith.addi %s3, %base13 : i32
        %v14_1 = arith.addi %s3, %v12_1 : i32
        %v14_2 = arith.addi %s3, %v12_2 : i32
        %v14_3 = arith.addi %s3, %v12_3 : i32
        %v15_0 = arith.addi %s11, %v14_0 : i32
        %v15_1 = arith.addi %s11, %v14_1 : i32
        %v15_2 = arith.addi %s11, %v14_2 : i32
        %v15_3 = arith.addi %s11, %v14_3 : i32
        %v16_0 = arith.extsi %v15_0 : i32 to i64
        %v16_1 = arith.extsi %v15_1 : i32 to i64
        %v16_2 = arith.extsi %v15_2 : i32 to i64
        %v16_3 = arith.extsi %v15_3 : i32 to i64
        %v17_0 = arith.cmpi slt, %v14_0, %N : i32
        %v17_1 = arith.cmpi slt, %v14_1, %N : i32
        %v17_2 = arith.cmpi slt, %v14_2, %N : i32
        %v17_3 = arith.cmpi slt, %v14_3, %N : i32
        %v18_0 = scf.if %v17_0 -> (f32) {
          %46 = llvm.getelementptr %b[%v16_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v18_1 = scf.if %v17_1 -> (f32) {
          %46 = llvm.getelementptr %b[%v16_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v18_2 = scf.if %v17_2 -> (f32) {
          %46 = llvm.getelementptr %b[%v16_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v18_3 = scf.if %v17_3 -> (f32) {
          %46 = llvm.getelementptr %b[%v16_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        nvvm.bar.warp.sync %c-1_i32 : i32
        %10 = arith.muli %slot, %c4_i32 : i32
        %11 = arith.addi %10, %base5 : i32
        %12 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
        %13 = llvm.getelementptr %12[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %14 = llvm.getelementptr %13[%11] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %v10_0, %14 : f32, !llvm.ptr<3>
        nvvm.bar.warp.sync %c-1_i32 : i32
        %v29_0 = arith.addi %v7_0, %c1_i32 : i32
        %v30_0 = arith.extsi %v29_0 : i32 to i64
        %v31_0 = scf.if %v9_0 -> (f32) {
          %46 = llvm.getelementptr %a[%v30_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %s32 = arith.muli %c1_i32, %N : i32
        %v33_0 = arith.addi %s32, %v14_0 : i32
        %v33_1 = arith.addi %s32, %v14_1 : i32
        %v33_2 = arith.addi %s32, %v14_2 : i32
        %v33_3 = arith.addi %s32, %v14_3 : i32
        %v34_0 = arith.extsi %v33_0 : i32 to i64
        %v34_1 = arith.extsi %v33_1 : i32 to i64
        %v34_2 = arith.extsi %v33_2 : i32 to i64
        %v34_3 = arith.extsi %v33_3 : i32 to i64
        %v35_0 = scf.if %v17_0 -> (f32) {
          %46 = llvm.getelementptr %b[%v34_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v35_1 = scf.if %v17_1 -> (f32) {
          %46 = llvm.getelementptr %b[%v34_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v35_2 = scf.if %v17_2 -> (f32) {
          %46 = llvm.getelementptr %b[%v34_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v35_3 = scf.if %v17_3 -> (f32) {
          %46 = llvm.getelementptr %b[%v34_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %15 = arith.muli %slot, %c4_i32 : i32
        %16 = arith.addi %15, %base21 : i32
        %17 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
        %18 = llvm.getelementptr %17[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %19 = llvm.getelementptr %18[%16] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %v20_0 = llvm.load %19 : !llvm.ptr<3> -> f32
        %v22_0 = arith.mulf %v20_0, %v18_0 : f32
        %v22_1 = arith.mulf %v20_0, %v18_1 : f32
        %v22_2 = arith.mulf %v20_0, %v18_2 : f32
        %v22_3 = arith.mulf %v20_0, %v18_3 : f32
        %v24_0 = arith.addi %s1, %base21 : i32
        %v25_0 = arith.muli %v24_0, %N : i32
        %v26_0 = arith.addi %v25_0, %v14_0 : i32
        %v26_1 = arith.addi %v25_0, %v14_1 : i32
        %v26_2 = arith.addi %v25_0, %v14_2 : i32
        %v26_3 = arith.addi %v25_0, %v14_3 : i32
        %20 = arith.sitofp %v26_0 : i32 to f32
        %v27_0 = arith.mulf %20, %cst : f32
        %21 = arith.sitofp %v26_1 : i32 to f32
        %v27_1 = arith.mulf %21, %cst : f32
        %22 = arith.sitofp %v26_2 : i32 to f32
        %v27_2 = arith.mulf %22, %cst : f32
        %23 = arith.sitofp %v26_3 : i32 to f32
        %v27_3 = arith.mulf %23, %cst : f32
        %v28_0 = arith.addf %v27_0, %v22_0 : f32
        %v28_1 = arith.addf %v27_1, %v22_1 : f32
        %v28_2 = arith.addf %v27_2, %v22_2 : f32
        %v28_3 = arith.addf %v27_3, %v22_3 : f32
        nvvm.bar.warp.sync %c-1_i32 : i32
        %24 = arith.muli %slot, %c4_i32 : i32
        %25 = arith.addi %24, %base5 : i32
        %26 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
        %27 = llvm.getelementptr %26[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %28 = llvm.getelementptr %27[%25] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %v31_0, %28 : f32, !llvm.ptr<3>
        nvvm.bar.warp.sync %c-1_i32 : i32
        %v40_0 = arith.addi %v7_0, %c2_i32 : i32
        %v41_0 = arith.extsi %v40_0 : i32 to i64
        %v42_0 = scf.if %v9_0 -> (f32) {
          %46 = llvm.getelementptr %a[%v41_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %s43 = arith.muli %c2_i32, %N : i32
        %v44_0 = arith.addi %s43, %v14_0 : i32
        %v44_1 = arith.addi %s43, %v14_1 : i32
        %v44_2 = arith.addi %s43, %v14_2 : i32
        %v44_3 = arith.addi %s43, %v14_3 : i32
        %v45_0 = arith.extsi %v44_0 : i32 to i64
        %v45_1 = arith.extsi %v44_1 : i32 to i64
        %v45_2 = arith.extsi %v44_2 : i32 to i64
        %v45_3 = arith.extsi %v44_3 : i32 to i64
        %v46_0 = scf.if %v17_0 -> (f32) {
          %46 = llvm.getelementptr %b[%v45_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v46_1 = scf.if %v17_1 -> (f32) {
          %46 = llvm.getelementptr %b[%v45_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v46_2 = scf.if %v17_2 -> (f32) {
          %46 = llvm.getelementptr %b[%v45_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %v46_3 = scf.if %v17_3 -> (f32) {
          %46 = llvm.getelementptr %b[%v45_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %47 = llvm.load %46 : !llvm.ptr -> f32
          scf.yield %47 : f32
        } else {
          scf.yield %cst : f32
        }
        %29 = arith.muli %slot, %c4_i32 : i32
        %30 = arith.addi %29, %base21 : i32
        %31 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
        %32 = llvm.getelementptr %31[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %33 = llvm.getelementptr %32[%30] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %v37_0 = llvm.load %33 : !llvm.ptr<3> -> f32
        %v38_0 = arith.mulf %v37_0, %v35_0 : f32
        %v38_1 = arith.mulf %v37_0, %v35_1 : f32
        %v38_2 = arith.mulf %v37_0, %v35_2 : f32
        %v38_3 = arith.mulf %v37_0, %v35_3 : f32
        %v39_0 = arith.addf %v28_0, %v38_0 : f32
        %v39_1 = arith.addf %v28_1, %v38_1 : f32
        %v39_2 = arith.addf %v28_2, %v38_2 : f32
        %v39_3 = arith.addf %v28_3, %v38_3 : f32
        nvvm.bar.warp.sync %c-1_i32 : i32
        %34 = arith.muli %slot, %c4_i32 : i32
        %35 = arith.addi %34, %base5 : i32
        %36 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
        %37 = llvm.getelementptr %36[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %38 = llvm.getelementptr %37[%35] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %v42_0, %38 : f32, !llvm.ptr<3>
        nvvm.bar.warp.sync %c-1_i32 : i32
        %39 = arith.muli %slot, %c4_i32 : i32
        %40 = arith.addi %39, %base21 : i32
        %41 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
        %42 = llvm.getelementptr %41[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %43 = llvm.getelementptr %42[%40] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %v48_0 = llvm.load %43 : !llvm.ptr<3> -> f32
        %v49_0 = arith.mulf %v48_0, %v46_0 : f32
        %v49_1 = arith.mulf %v48_0, %v46_1 : f32
        %v49_2 = arith.mulf %v48_0, %v46_2 : f32
        %v49_3 = arith.mulf %v48_0, %v46_3 : f32
        %v50_0 = arith.addf %v39_0, %v49_0 : f32
        %v50_1 = arith.addf %v39_1, %v49_1 : f32
        %v50_2 = arith.addf %v39_2, %v49_2 : f32
        %v50_3 = arith.addf %v39_3, %v49_3 : f32
        %v51_0 = arith.extsi %v26_0 : i32 to i64
        %v51_1 = arith.extsi %v26_1 : i32 to i64
        %v51_2 = arith.extsi %v26_2 : i32 to i64
        %v51_3 = arith.extsi %v26_3 : i32 to i64
        %v52_0 = arith.cmpi slt, %v24_0, %M : i32
        %v53_0 = arith.andi %v52_0, %v17_0 : i1
        %v53_1 = arith.andi %v52_0, %v17_1 : i1
        %v53_2 = arith.andi %v52_0, %v17_2 : i1
        %v53_3 = arith.andi %v52_0, %v17_3 : i1
        %44 = arith.andi %lane, %c24_i32 : i32
        %45 = arith.cmpi eq, %44, %c0_i32 : i32
        scf.if %45 {
          scf.if %v53_0 {
            %46 = llvm.getelementptr %c[%v51_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v50_0, %46 : f32, !llvm.ptr
          }
          scf.if %v53_1 {
            %46 = llvm.getelementptr %c[%v51_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v50_1, %46 : f32, !llvm.ptr
          }
          scf.if %v53_2 {
            %46 = llvm.getelementptr %c[%v51_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v50_2, %46 : f32, !llvm.ptr
          }
          scf.if %v53_3 {
            %46 = llvm.getelementptr %c[%v51_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v50_3, %46 : f32, !llvm.ptr
          }
        }
      }
      gpu.return
    }
  }
}

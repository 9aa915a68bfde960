module attributes {gpu.container_module} {
  gpu.module @naive_matmul_kernel_module {
    gpu.func @naive_matmul_kernel(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr, %n_cols: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c3_i32 = arith.constant 3 : i32
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c1_i64 = arith.constant 1 : i64
      %c2_i64 = arith.constant 2 : i64
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.addi %3, %slot : i32
      %5 = arith.cmpi slt, %4, %mt_grid_x : i32
      scf.if %5 {
        %6 = nvvm.read.ptx.sreg.ctaid.x : i32
        %7 = arith.muli %6, %c4_i32 : i32
        %s0 = arith.addi %7, %slot : i32
        %s1 = arith.muli %s0, %c3_i32 : i32
        %s2 = arith.extsi %s1 : i32 to i64
        %8 = llvm.getelementptr %a[%s2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %s4 = llvm.load %8 : !llvm.ptr -> f32
        %s5 = arith.muli %c0_i32, %n_cols : i32
        %s6 = nvvm.read.ptx.sreg.ctaid.y : i32
        %s7 = arith.muli %s6, %c4_i32 : i32
        %v9_0 = arith.addi %s7, %c0_i32 : i32
        %v9_1 = arith.addi %s7, %c1_i32 : i32
        %v9_2 = arith.addi %s7, %c2_i32 : i32
        %v9_3 = arith.addi %s7, %c3_i32 : i32
        %v10_0 = arith.addi %s5, %v9_0 : i32
        %v10_1 = arith.addi %s5, %v9_1 : i32
        %v10_2 = arith.addi %s5, %v9_2 : i32
        %v10_3 = arith.addi %s5, %v9_3 : i32
        %v11_0 = arith.extsi %v10_0 : i32 to i64
        %v11_1 = arith.extsi %v10_1 : i32 to i64
        %v11_2 = arith.extsi %v10_2 : i32 to i64
        %v11_3 = arith.extsi %v10_3 : i32 to i64
        %v12_0 = arith.cmpi slt, %v9_0, %n_cols : i32
        %v12_1 = arith.cmpi slt, %v9_1, %n_cols : i32
        %v12_2 = arith.cmpi slt, %v9_2, %n_cols : i32
        %v12_3 = arith.cmpi slt, %v9_3, %n_cols : i32
        %v13_0 = scf.if %v12_0 -> (f32) {
          %13 = llvm.getelementptr %b[%v11_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_1 = scf.if %v12_1 -> (f32) {
          %13 = llvm.getelementptr %b[%v11_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_2 = scf.if %v12_2 -> (f32) {
          %13 = llvm.getelementptr %b[%v11_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_3 = scf.if %v12_3 -> (f32) {
          %13 = llvm.getelementptr %b[%v11_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %s16 = arith.addi %s2, %c1_i64 : i64
        %9 = llvm.getelementptr %a[%s16] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %s17 = llvm.load %9 : !llvm.ptr -> f32
        %s18 = arith.muli %c1_i32, %n_cols : i32
        %v19_0 = arith.addi %s18, %v9_0 : i32
        %v19_1 = arith.addi %s18, %v9_1 : i32
        %v19_2 = arith.addi %s18, %v9_2 : i32
        %v19_3 = arith.addi %s18, %v9_3 : i32
        %v20_0 = arith.extsi %v19_0 : i32 to i64
        %v20_1 = arith.extsi %v19_1 : i32 to i64
        %v20_2 = arith.extsi %v19_2 : i32 to i64
        %v20_3 = arith.extsi %v19_3 : i32 to i64
        %v21_0 = scf.if %v12_0 -> (f32) {
          %13 = llvm.getelementptr %b[%v20_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v21_1 = scf.if %v12_1 -> (f32) {
          %13 = llvm.getelementptr %b[%v20_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v21_2 = scf.if %v12_2 -> (f32) {
          %13 = llvm.getelementptr %b[%v20_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v21_3 = scf.if %v12_3 -> (f32) {
          %13 = llvm.getelementptr %b[%v20_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %s24 = arith.addi %s2, %c2_i64 : i64
        %10 = llvm.getelementptr %a[%s24] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %s25 = llvm.load %10 : !llvm.ptr -> f32
        %s26 = arith.muli %c2_i32, %n_cols : i32
        %v27_0 = arith.addi %s26, %v9_0 : i32
        %v27_1 = arith.addi %s26, %v9_1 : i32
        %v27_2 = arith.addi %s26, %v9_2 : i32
        %v27_3 = arith.addi %s26, %v9_3 : i32
        %v28_0 = arith.extsi %v27_0 : i32 to i64
        %v28_1 = arith.extsi %v27_1 : i32 to i64
        %v28_2 = arith.extsi %v27_2 : i32 to i64
        %v28_3 = arith.extsi %v27_3 : i32 to i64
        %v29_0 = scf.if %v12_0 -> (f32) {
          %13 = llvm.getelementptr %b[%v28_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v29_1 = scf.if %v12_1 -> (f32) {
          %13 = llvm.getelementptr %b[%v28_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v29_2 = scf.if %v12_2 -> (f32) {
          %13 = llvm.getelementptr %b[%v28_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v29_3 = scf.if %v12_3 -> (f32) {
          %13 = llvm.getelementptr %b[%v28_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v14_0 = arith.mulf %s4, %v13_0 : f32
        %v14_1 = arith.mulf %s4, %v13_1 : f32
        %v14_2 = arith.mulf %s4, %v13_2 : f32
        %v14_3 = arith.mulf %s4, %v13_3 : f32
        %v15_0 = arith.addf %cst, %v14_0 : f32
        %v15_1 = arith.addf %cst, %v14_1 : f32
        %v15_2 = arith.addf %cst, %v14_2 : f32
        %v15_3 = arith.addf %cst, %v14_3 : f32
        %v22_0 = arith.mulf %s17, %v21_0 : f32
        %v22_1 = arith.mulf %s17, %v21_1 : f32
        %v22_2 = arith.mulf %s17, %v21_2 : f32
        %v22_3 = arith.mulf %s17, %v21_3 : f32
        %v23_0 = arith.addf %v15_0, %v22_0 : f32
        %v23_1 = arith.addf %v15_1, %v22_1 : f32
        %v23_2 = arith.addf %v15_2, %v22_2 : f32
        %v23_3 = arith.addf %v15_3, %v22_3 : f32
        %v30_0 = arith.mulf %s25, %v29_0 : f32
        %v30_1 = arith.mulf %s25, %v29_1 : f32
        %v30_2 = arith.mulf %s25, %v29_2 : f32
        %v30_3 = arith.mulf %s25, %v29_3 : f32
        %v31_0 = arith.addf %v23_0, %v30_0 : f32
        %v31_1 = arith.addf %v23_1, %v30_1 : f32
        %v31_2 = arith.addf %v23_2, %v30_2 : f32
        %v31_3 = arith.addf %v23_3, %v30_3 : f32
        %s32 = arith.muli %s0, %n_cols : i32
        %v33_0 = arith.addi %s32, %v9_0 : i32
        %v33_1 = arith.addi %s32, %v9_1 : i32
        %v33_2 = arith.addi %s32, %v9_2 : i32
        %v33_3 = arith.addi %s32, %v9_3 : i32
        %v34_0 = arith.extsi %v33_0 : i32 to i64
        %v34_1 = arith.extsi %v33_1 : i32 to i64
        %v34_2 = arith.extsi %v33_2 : i32 to i64
        %v34_3 = arith.extsi %v33_3 : i32 to i64
        %11 = arith.andi %lane, %c31_i32 : i32
        %12 = arith.cmpi eq, %11, %c0_i32 : i32
        scf.if %12 {
          scf.if %v12_0 {
            %13 = llvm.getelementptr %c[%v34_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v31_0, %13 : f32, !llvm.ptr
          }
          scf.if %v12_1 {
            %13 = llvm.getelementptr %c[%v34_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v31_1, %13 : f32, !llvm.ptr
          }
          scf.if %v12_2 {
            %13 = llvm.getelementptr %c[%v34_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v31_2, %13 : f32, !llvm.ptr
          }
          scf.if %v12_3 {
            %13 = llvm.getelementptr %c[%v34_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %v31_3, %13 : f32, !llvm.ptr
          }
        }
      }
      gpu.return
    }
  }
}

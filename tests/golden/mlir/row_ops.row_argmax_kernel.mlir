module attributes {gpu.container_module} {
  gpu.module @row_argmax_kernel_module {
    gpu.func @row_argmax_kernel(%x_ptr: !llvm.ptr, %out_ptr: !llvm.ptr, %n_rows: i32, %n_cols: i32, %stride: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c1_i32 = arith.constant 1 : i32
      %c4_i32 = arith.constant 4 : i32
      %c15_i32 = arith.constant 15 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %cst = arith.constant 0xFF800000 : f32
      %c-1_i32 = arith.constant -1 : i32
      %c8_i32 = arith.constant 8 : i32
      %c0_i32 = arith.constant 0 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.shrsi %lane, %c4_i32 : i32
      %base3 = arith.andi %2, %c1_i32 : i32
      %3 = arith.andi %lane, %c15_i32 : i32
      %base8 = arith.muli %3, %c4_i32 : i32
      %4 = nvvm.read.ptx.sreg.ctaid.x : i32
      %5 = arith.muli %4, %c4_i32 : i32
      %6 = arith.addi %5, %slot : i32
      %7 = arith.cmpi slt, %6, %mt_grid_x : i32
      scf.if %7 {
        %8 = nvvm.read.ptx.sreg.ctaid.x : i32
        %9 = arith.muli %8, %c4_i32 : i32
        %s0 = arith.addi %9, %slot : i32
        %s1 = arith.muli %s0, %c4_i32 : i32
        %v2_1 = arith.addi %base3, %c2_i32 : i32
        %v4_0 = arith.addi %s1, %base3 : i32
        %v4_1 = arith.addi %s1, %v2_1 : i32
        %v5_0 = arith.muli %v4_0, %stride : i32
        %v5_1 = arith.muli %v4_1, %stride : i32
        %v6_0 = arith.extsi %v5_0 : i32 to i64
        %v6_1 = arith.extsi %v5_1 : i32 to i64
        %v7_1 = arith.addi %base8, %c1_i32 : i32
        %v7_2 = arith.addi %base8, %c2_i32 : i32
        %v7_3 = arith.addi %base8, %c3_i32 : i32
        %10 = arith.extsi %base8 : i32 to i64
        %v9_0 = arith.addi %v6_0, %10 : i64
        %11 = arith.extsi %v7_1 : i32 to i64
        %v9_1 = arith.addi %v6_0, %11 : i64
        %12 = arith.extsi %v7_2 : i32 to i64
        %v9_2 = arith.addi %v6_0, %12 : i64
        %13 = arith.extsi %v7_3 : i32 to i64
        %v9_3 = arith.addi %v6_0, %13 : i64
        %14 = arith.extsi %base8 : i32 to i64
        %v9_4 = arith.addi %v6_1, %14 : i64
        %15 = arith.extsi %v7_1 : i32 to i64
        %v9_5 = arith.addi %v6_1, %15 : i64
        %16 = arith.extsi %v7_2 : i32 to i64
        %v9_6 = arith.addi %v6_1, %16 : i64
        %17 = arith.extsi %v7_3 : i32 to i64
        %v9_7 = arith.addi %v6_1, %17 : i64
        %v10_0 = arith.cmpi slt, %v4_0, %n_rows : i32
        %v10_1 = arith.cmpi slt, %v4_1, %n_rows : i32
        %v11_0 = arith.cmpi slt, %base8, %n_cols : i32
        %v11_1 = arith.cmpi slt, %v7_1, %n_cols : i32
        %v11_2 = arith.cmpi slt, %v7_2, %n_cols : i32
        %v11_3 = arith.cmpi slt, %v7_3, %n_cols : i32
        %v12_0 = arith.andi %v10_0, %v11_0 : i1
        %v12_1 = arith.andi %v10_0, %v11_1 : i1
        %v12_2 = arith.andi %v10_0, %v11_2 : i1
        %v12_3 = arith.andi %v10_0, %v11_3 : i1
        %v12_4 = arith.andi %v10_1, %v11_0 : i1
        %v12_5 = arith.andi %v10_1, %v11_1 : i1
        %v12_6 = arith.andi %v10_1, %v11_2 : i1
        %v12_7 = arith.andi %v10_1, %v11_3 : i1
        %v13_0 = scf.if %v12_0 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_1 = scf.if %v12_1 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_2 = scf.if %v12_2 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_3 = scf.if %v12_3 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_4 = scf.if %v12_4 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_5 = scf.if %v12_5 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_6 = scf.if %v12_6 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_7 = scf.if %v12_7 -> (f32) {
          %20 = llvm.getelementptr %x_ptr[%v9_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %s15 = arith.cmpf ogt, %v13_0, %v13_1 : f32
        %s16 = arith.cmpf oeq, %v13_0, %v13_1 : f32
        %s17 = arith.cmpi slt, %base8, %v7_1 : i32
        %s18 = arith.andi %s16, %s17 : i1
        %s19 = arith.ori %s15, %s18 : i1
        %s20 = arith.select %s19, %v13_0, %v13_1 : f32
        %s21 = arith.select %s19, %base8, %v7_1 : i32
        %s22 = arith.cmpf ogt, %s20, %v13_2 : f32
        %s23 = arith.cmpf oeq, %s20, %v13_2 : f32
        %s24 = arith.cmpi slt, %s21, %v7_2 : i32
        %s25 = arith.andi %s23, %s24 : i1
        %s26 = arith.ori %s22, %s25 : i1
        %s27 = arith.select %s26, %s20, %v13_2 : f32
        %s28 = arith.select %s26, %s21, %v7_2 : i32
        %s29 = arith.cmpf ogt, %s27, %v13_3 : f32
        %s30 = arith.cmpf oeq, %s27, %v13_3 : f32
        %s31 = arith.cmpi slt, %s28, %v7_3 : i32
        %s32 = arith.andi %s30, %s31 : i1
        %s33 = arith.ori %s29, %s32 : i1
        %s34 = arith.select %s33, %s27, %v13_3 : f32
        %s35 = arith.select %s33, %s28, %v7_3 : i32
        %s36 = arith.cmpf ogt, %v13_4, %v13_5 : f32
        %s37 = arith.cmpf oeq, %v13_4, %v13_5 : f32
        %s38 = arith.cmpi slt, %base8, %v7_1 : i32
        %s39 = arith.andi %s37, %s38 : i1
        %s40 = arith.ori %s36, %s39 : i1
        %s41 = arith.select %s40, %v13_4, %v13_5 : f32
        %s42 = arith.select %s40, %base8, %v7_1 : i32
        %s43 = arith.cmpf ogt, %s41, %v13_6 : f32
        %s44 = arith.cmpf oeq, %s41, %v13_6 : f32
        %s45 = arith.cmpi slt, %s42, %v7_2 : i32
        %s46 = arith.andi %s44, %s45 : i1
        %s47 = arith.ori %s43, %s46 : i1
        %s48 = arith.select %s47, %s41, %v13_6 : f32
        %s49 = arith.select %s47, %s42, %v7_2 : i32
        %s50 = arith.cmpf ogt, %s48, %v13_7 : f32
        %s51 = arith.cmpf oeq, %s48, %v13_7 : f32
        %s52 = arith.cmpi slt, %s49, %v7_3 : i32
        %s53 = arith.andi %s51, %s52 : i1
        %s54 = arith.ori %s50, %s53 : i1
        %s55 = arith.select %s54, %s48, %v13_7 : f32
        %s56 = arith.select %s54, %s49, %v7_3 : i32
        %sh57 = nvvm.shfl.sync  bfly %c-1_i32, %s34, %c1_i32, %c31_i32 : f32 -> f32
        %sh58 = nvvm.shfl.sync  bfly %c-1_i32, %s35, %c1_i32, %c31_i32 : i32 -> i32
        %s59 = arith.cmpf ogt, %s34, %sh57 : f32
        %s60 = arith.cmpf oeq, %s34, %sh57 : f32
        %s61 = arith.cmpi slt, %s35, %sh58 : i32
        %s62 = arith.andi %s60, %s61 : i1
        %s63 = arith.ori %s59, %s62 : i1
        %s64 = arith.select %s63, %s34, %sh57 : f32
        %s65 = arith.select %s63, %s35, %sh58 : i32
        %sh66 = nvvm.shfl.sync  bfly %c-1_i32, %s55, %c1_i32, %c31_i32 : f32 -> f32
        %sh67 = nvvm.shfl.sync  bfly %c-1_i32, %s56, %c1_i32, %c31_i32 : i32 -> i32
        %s68 = arith.cmpf ogt, %s55, %sh66 : f32
        %s69 = arith.cmpf oeq, %s55, %sh66 : f32
        %s70 = arith.cmpi slt, %s56, %sh67 : i32
        %s71 = arith.andi %s69, %s70 : i1
        %s72 = arith.ori %s68, %s71 : i1
        %s73 = arith.select %s72, %s55, %sh66 : f32
        %s74 = arith.select %s72, %s56, %sh67 : i32
        %sh75 = nvvm.shfl.sync  bfly %c-1_i32, %s64, %c2_i32, %c31_i32 : f32 -> f32
        %sh76 = nvvm.shfl.sync  bfly %c-1_i32, %s65, %c2_i32, %c31_i32 : i32 -> i32
        %s77 = arith.cmpf ogt, %s64, %sh75 : f32
        %s78 = arith.cmpf oeq, %s64, %sh75 : f32
        %s79 = arith.cmpi slt, %s65, %sh76 : i32
        %s80 = arith.andi %s78, %s79 : i1
        %s81 = arith.ori %s77, %s80 : i1
        %s82 = arith.select %s81, %s64, %sh75 : f32
        %s83 = arith.select %s81, %s65, %sh76 : i32
        %sh84 = nvvm.shfl.sync  bfly %c-1_i32, %s73, %c2_i32, %c31_i32 : f32 -> f32
        %sh85 = nvvm.shfl.sync  bfly %c-1_i32, %s74, %c2_i32, %c31_i32 : i32 -> i32
        %s86 = arith.cmpf ogt, %s73, %sh84 : f32
        %s87 = arith.cmpf oeq, %s73, %sh84 : f32
        %s88 = arith.cmpi slt, %s74, %sh85 : i32
        %s89 = arith.andi %s87, %s88 : i1
        %s90 = arith.ori %s86, %s89 : i1
        %s91 = arith.select %s90, %s73, %sh84 : f32
        %s92 = arith.select %s90, %s74, %sh85 : i32
        %sh93 = nvvm.shfl.sync  bfly %c-1_i32, %s82, %c4_i32, %c31_i32 : f32 -> f32
        %sh94 = nvvm.shfl.sync  bfly %c-1_i32, %s83, %c4_i32, %c31_i32 : i32 -> i32
        %s95 = arith.cmpf ogt, %s82, %sh93 : f32
        %s96 = arith.cmpf oeq, %s82, %sh93 : f32
        %s97 = arith.cmpi slt, %s83, %sh94 : i32
        %s98 = arith.andi %s96, %s97 : i1
        %s99 = arith.ori %s95, %s98 : i1
        %s100 = arith.select %s99, %s82, %sh93 : f32
        %s101 = arith.select %s99, %s83, %sh94 : i32
        %sh102 = nvvm.shfl.sync  bfly %c-1_i32, %s91, %c4_i32, %c31_i32 : f32 -> f32
        %sh103 = nvvm.shfl.sync  bfly %c-1_i32, %s92, %c4_i32, %c31_i32 : i32 -> i32
        %s104 = arith.cmpf ogt, %s91, %sh102 : f32
        %s105 = arith.cmpf oeq, %s91, %sh102 : f32
        %s106 = arith.cmpi slt, %s92, %sh103 : i32
        %s107 = arith.andi %s105, %s106 : i1
        %s108 = arith.ori %s104, %s107 : i1
        %s109 = arith.select %s108, %s91, %sh102 : f32
        %s110 = arith.select %s108, %s92, %sh103 : i32
        %sh111 = nvvm.shfl.sync  bfly %c-1_i32, %s100, %c8_i32, %c31_i32 : f32 -> f32
        %sh112 = nvvm.shfl.sync  bfly %c-1_i32, %s101, %c8_i32, %c31_i32 : i32 -> i32
        %s113 = arith.cmpf ogt, %s100, %sh111 : f32
        %s114 = arith.cmpf oeq, %s100, %sh111 : f32
        %s115 = arith.cmpi slt, %s101, %sh112 : i32
        %s116 = arith.andi %s114, %s115 : i1
        %s117 = arith.ori %s113, %s116 : i1
        %s118 = arith.select %s117, %s100, %sh111 : f32
        %s119 = arith.select %s117, %s101, %sh112 : i32
        %sh120 = nvvm.shfl.sync  bfly %c-1_i32, %s109, %c8_i32, %c31_i32 : f32 -> f32
        %sh121 = nvvm.shfl.sync  bfly %c-1_i32, %s110, %c8_i32, %c31_i32 : i32 -> i32
        %s122 = arith.cmpf ogt, %s109, %sh120 : f32
        %s123 = arith.cmpf oeq, %s109, %sh120 : f32
        %s124 = arith.cmpi slt, %s110, %sh121 : i32
        %s125 = arith.andi %s123, %s124 : i1
        %s126 = arith.ori %s122, %s125 : i1
        %s127 = arith.select %s126, %s109, %sh120 : f32
        %s128 = arith.select %s126, %s110, %sh121 : i32
        %v131_0 = arith.extsi %v4_0 : i32 to i64
        %v131_1 = arith.extsi %v4_1 : i32 to i64
        %v132_0 = arith.cmpi slt, %v4_0, %n_rows : i32
        %v132_1 = arith.cmpi slt, %v4_1, %n_rows : i32
        %18 = arith.andi %lane, %c15_i32 : i32
        %19 = arith.cmpi eq, %18, %c0_i32 : i32
        scf.if %19 {
          scf.if %v132_0 {
            %20 = llvm.getelementptr %out_ptr[%v131_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %21 = arith.sitofp %s119 : i32 to f32
            llvm.store %21, %20 : f32, !llvm.ptr
          }
          scf.if %v132_1 {
            %20 = llvm.getelementptr %out_ptr[%v131_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %21 = arith.sitofp %s128 : i32 to f32
            llvm.store %21, %20 : f32, !llvm.ptr
          }
        }
      }
      gpu.return
    }
  }
}

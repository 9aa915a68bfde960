module attributes {gpu.container_module} {
  gpu.module @long_row_sum_kernel_module {
    gpu.func @long_row_sum_kernel(%x: !llvm.ptr, %out: !llvm.ptr, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c10_i32 = arith.constant 10 : i32
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %c8_i32 = arith.constant 8 : i32
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
        %s1 = arith.muli %s0, %c10_i32 : i32
        %s2 = arith.extsi %s1 : i32 to i64
        %v4_0 = arith.addi %c0_i32, %c0_i32 : i32
        %v4_1 = arith.addi %c0_i32, %c1_i32 : i32
        %v4_2 = arith.addi %c0_i32, %c2_i32 : i32
        %v4_3 = arith.addi %c0_i32, %c3_i32 : i32
        %8 = arith.extsi %v4_0 : i32 to i64
        %v5_0 = arith.addi %s2, %8 : i64
        %9 = arith.extsi %v4_1 : i32 to i64
        %v5_1 = arith.addi %s2, %9 : i64
        %10 = arith.extsi %v4_2 : i32 to i64
        %v5_2 = arith.addi %s2, %10 : i64
        %11 = arith.extsi %v4_3 : i32 to i64
        %v5_3 = arith.addi %s2, %11 : i64
        %v6_0 = arith.cmpi slt, %v4_0, %c10_i32 : i32
        %v6_1 = arith.cmpi slt, %v4_1, %c10_i32 : i32
        %v6_2 = arith.cmpi slt, %v4_2, %c10_i32 : i32
        %v6_3 = arith.cmpi slt, %v4_3, %c10_i32 : i32
        %v7_0 = scf.if %v6_0 -> (f32) {
          %24 = llvm.getelementptr %x[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_1 = scf.if %v6_1 -> (f32) {
          %24 = llvm.getelementptr %x[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_2 = scf.if %v6_2 -> (f32) {
          %24 = llvm.getelementptr %x[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_3 = scf.if %v6_3 -> (f32) {
          %24 = llvm.getelementptr %x[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_0 = arith.addi %c4_i32, %c0_i32 : i32
        %v9_1 = arith.addi %c4_i32, %c1_i32 : i32
        %v9_2 = arith.addi %c4_i32, %c2_i32 : i32
        %v9_3 = arith.addi %c4_i32, %c3_i32 : i32
        %12 = arith.extsi %v9_0 : i32 to i64
        %v10_0 = arith.addi %s2, %12 : i64
        %13 = arith.extsi %v9_1 : i32 to i64
        %v10_1 = arith.addi %s2, %13 : i64
        %14 = arith.extsi %v9_2 : i32 to i64
        %v10_2 = arith.addi %s2, %14 : i64
        %15 = arith.extsi %v9_3 : i32 to i64
        %v10_3 = arith.addi %s2, %15 : i64
        %v11_0 = arith.cmpi slt, %v9_0, %c10_i32 : i32
        %v11_1 = arith.cmpi slt, %v9_1, %c10_i32 : i32
        %v11_2 = arith.cmpi slt, %v9_2, %c10_i32 : i32
        %v11_3 = arith.cmpi slt, %v9_3, %c10_i32 : i32
        %v12_0 = scf.if %v11_0 -> (f32) {
          %24 = llvm.getelementptr %x[%v10_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_1 = scf.if %v11_1 -> (f32) {
          %24 = llvm.getelementptr %x[%v10_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_2 = scf.if %v11_2 -> (f32) {
          %24 = llvm.getelementptr %x[%v10_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_3 = scf.if %v11_3 -> (f32) {
          %24 = llvm.getelementptr %x[%v10_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v14_0 = arith.addi %c8_i32, %c0_i32 : i32
        %v14_1 = arith.addi %c8_i32, %c1_i32 : i32
        %v14_2 = arith.addi %c8_i32, %c2_i32 : i32
        %v14_3 = arith.addi %c8_i32, %c3_i32 : i32
        %16 = arith.extsi %v14_0 : i32 to i64
        %v15_0 = arith.addi %s2, %16 : i64
        %17 = arith.extsi %v14_1 : i32 to i64
        %v15_1 = arith.addi %s2, %17 : i64
        %18 = arith.extsi %v14_2 : i32 to i64
        %v15_2 = arith.addi %s2, %18 : i64
        %19 = arith.extsi %v14_3 : i32 to i64
        %v15_3 = arith.addi %s2, %19 : i64
        %v16_0 = arith.cmpi slt, %v14_0, %c10_i32 : i32
        %v16_1 = arith.cmpi slt, %v14_1, %c10_i32 : i32
        %v16_2 = arith.cmpi slt, %v14_2, %c10_i32 : i32
        %v16_3 = arith.cmpi slt, %v14_3, %c10_i32 : i32
        %v17_0 = scf.if %v16_0 -> (f32) {
          %24 = llvm.getelementptr %x[%v15_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v17_1 = scf.if %v16_1 -> (f32) {
          %24 = llvm.getelementptr %x[%v15_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v17_2 = scf.if %v16_2 -> (f32) {
          %24 = llvm.getelementptr %x[%v15_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v17_3 = scf.if %v16_3 -> (f32) {
          %24 = llvm.getelementptr %x[%v15_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %25 = llvm.load %24 : !llvm.ptr -> f32
          scf.yield %25 : f32
        } else {
          scf.yield %cst : f32
        }
        %v8_0 = arith.addf %cst, %v7_0 : f32
        %v8_1 = arith.addf %cst, %v7_1 : f32
        %v8_2 = arith.addf %cst, %v7_2 : f32
        %v8_3 = arith.addf %cst, %v7_3 : f32
        %v13_0 = arith.addf %v8_0, %v12_0 : f32
        %v13_1 = arith.addf %v8_1, %v12_1 : f32
        %v13_2 = arith.addf %v8_2, %v12_2 : f32
        %v13_3 = arith.addf %v8_3, %v12_3 : f32
        %v18_0 = arith.addf %v13_0, %v17_0 : f32
        %v18_1 = arith.addf %v13_1, %v17_1 : f32
        %v18_2 = arith.addf %v13_2, %v17_2 : f32
        %v18_3 = arith.addf %v13_3, %v17_3 : f32
        %20 = arith.addf %v18_0, %v18_1 : f32
        %21 = arith.addf %20, %v18_2 : f32
        %red19 = arith.addf %21, %v18_3 : f32
        %s20 = arith.extsi %s0 : i32 to i64
        %v21_0 = arith.cmpi slt, %c0_i32, %c1_i32 : i32
        %v21_1 = arith.cmpi slt, %c1_i32, %c1_i32 : i32
        %v21_2 = arith.cmpi slt, %c2_i32, %c1_i32 : i32
        %v21_3 = arith.cmpi slt, %c3_i32, %c1_i32 : i32
        %22 = arith.andi %lane, %c31_i32 : i32
        %23 = arith.cmpi eq, %22, %c0_i32 : i32
        scf.if %23 {
          scf.if %v21_0 {
            %24 = llvm.getelementptr %out[%s20] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red19, %24 : f32, !llvm.ptr
          }
          scf.if %v21_1 {
            %24 = llvm.getelementptr %out[%s20] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red19, %24 : f32, !llvm.ptr
          }
          scf.if %v21_2 {
            %24 = llvm.getelementptr %out[%s20] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red19, %24 : f32, !llvm.ptr
          }
          scf.if %v21_3 {
            %24 = llvm.getelementptr %out[%s20] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red19, %24 : f32, !llvm.ptr
          }
        }
      }
      gpu.return
    }
  }
}

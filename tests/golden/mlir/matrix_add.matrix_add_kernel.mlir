module attributes {gpu.container_module} {
  gpu.module @matrix_add_kernel_module {
    gpu.func @matrix_add_kernel(%x: !llvm.ptr, %y: !llvm.ptr, %out: !llvm.ptr, %n_cols: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c256_i32 = arith.constant 256 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c128_i32 = arith.constant 128 : i32
      %c129_i32 = arith.constant 129 : i32
      %c130_i32 = arith.constant 130 : i32
      %c131_i32 = arith.constant 131 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %base5 = arith.muli %lane, %c4_i32 : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.addi %3, %slot : i32
      %5 = arith.cmpi slt, %4, %mt_grid_x : i32
      scf.if %5 {
        %6 = nvvm.read.ptx.sreg.ctaid.x : i32
        %7 = arith.muli %6, %c4_i32 : i32
        %s0 = arith.addi %7, %slot : i32
        %s1 = arith.muli %s0, %n_cols : i32
        %s2 = nvvm.read.ptx.sreg.ctaid.y : i32
        %s3 = arith.muli %s2, %c256_i32 : i32
        %v4_1 = arith.addi %base5, %c1_i32 : i32
        %v4_2 = arith.addi %base5, %c2_i32 : i32
        %v4_3 = arith.addi %base5, %c3_i32 : i32
        %v4_4 = arith.addi %base5, %c128_i32 : i32
        %v4_5 = arith.addi %base5, %c129_i32 : i32
        %v4_6 = arith.addi %base5, %c130_i32 : i32
        %v4_7 = arith.addi %base5, %c131_i32 : i32
        %v6_0 = arith.addi %s3, %base5 : i32
        %v6_1 = arith.addi %s3, %v4_1 : i32
        %v6_2 = arith.addi %s3, %v4_2 : i32
        %v6_3 = arith.addi %s3, %v4_3 : i32
        %v6_4 = arith.addi %s3, %v4_4 : i32
        %v6_5 = arith.addi %s3, %v4_5 : i32
        %v6_6 = arith.addi %s3, %v4_6 : i32
        %v6_7 = arith.addi %s3, %v4_7 : i32
        %v7_0 = arith.addi %s1, %v6_0 : i32
        %v7_1 = arith.addi %s1, %v6_1 : i32
        %v7_2 = arith.addi %s1, %v6_2 : i32
        %v7_3 = arith.addi %s1, %v6_3 : i32
        %v7_4 = arith.addi %s1, %v6_4 : i32
        %v7_5 = arith.addi %s1, %v6_5 : i32
        %v7_6 = arith.addi %s1, %v6_6 : i32
        %v7_7 = arith.addi %s1, %v6_7 : i32
        %v8_0 = arith.extsi %v7_0 : i32 to i64
        %v8_1 = arith.extsi %v7_1 : i32 to i64
        %v8_2 = arith.extsi %v7_2 : i32 to i64
        %v8_3 = arith.extsi %v7_3 : i32 to i64
        %v8_4 = arith.extsi %v7_4 : i32 to i64
        %v8_5 = arith.extsi %v7_5 : i32 to i64
        %v8_6 = arith.extsi %v7_6 : i32 to i64
        %v8_7 = arith.extsi %v7_7 : i32 to i64
        %v9_0 = arith.cmpi slt, %v6_0, %n_cols : i32
        %v9_1 = arith.cmpi slt, %v6_1, %n_cols : i32
        %v9_2 = arith.cmpi slt, %v6_2, %n_cols : i32
        %v9_3 = arith.cmpi slt, %v6_3, %n_cols : i32
        %v9_4 = arith.cmpi slt, %v6_4, %n_cols : i32
        %v9_5 = arith.cmpi slt, %v6_5, %n_cols : i32
        %v9_6 = arith.cmpi slt, %v6_6, %n_cols : i32
        %v9_7 = arith.cmpi slt, %v6_7, %n_cols : i32
        %v10_0 = scf.if %v9_0 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_1 = scf.if %v9_1 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_2 = scf.if %v9_2 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_3 = scf.if %v9_3 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_4 = scf.if %v9_4 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_5 = scf.if %v9_5 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_6 = scf.if %v9_6 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_7 = scf.if %v9_7 -> (f32) {
          %8 = llvm.getelementptr %x[%v8_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v11_0 = arith.extsi %v7_0 : i32 to i64
        %v11_1 = arith.extsi %v7_1 : i32 to i64
        %v11_2 = arith.extsi %v7_2 : i32 to i64
        %v11_3 = arith.extsi %v7_3 : i32 to i64
        %v11_4 = arith.extsi %v7_4 : i32 to i64
        %v11_5 = arith.extsi %v7_5 : i32 to i64
        %v11_6 = arith.extsi %v7_6 : i32 to i64
        %v11_7 = arith.extsi %v7_7 : i32 to i64
        %v12_0 = scf.if %v9_0 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_1 = scf.if %v9_1 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_2 = scf.if %v9_2 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_3 = scf.if %v9_3 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_4 = scf.if %v9_4 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_5 = scf.if %v9_5 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_6 = scf.if %v9_6 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v12_7 = scf.if %v9_7 -> (f32) {
          %8 = llvm.getelementptr %y[%v11_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v13_0 = arith.addf %v10_0, %v12_0 : f32
        %v13_1 = arith.addf %v10_1, %v12_1 : f32
        %v13_2 = arith.addf %v10_2, %v12_2 : f32
        %v13_3 = arith.addf %v10_3, %v12_3 : f32
        %v13_4 = arith.addf %v10_4, %v12_4 : f32
        %v13_5 = arith.addf %v10_5, %v12_5 : f32
        %v13_6 = arith.addf %v10_6, %v12_6 : f32
        %v13_7 = arith.addf %v10_7, %v12_7 : f32
        %v14_0 = arith.extsi %v7_0 : i32 to i64
        %v14_1 = arith.extsi %v7_1 : i32 to i64
        %v14_2 = arith.extsi %v7_2 : i32 to i64
        %v14_3 = arith.extsi %v7_3 : i32 to i64
        %v14_4 = arith.extsi %v7_4 : i32 to i64
        %v14_5 = arith.extsi %v7_5 : i32 to i64
        %v14_6 = arith.extsi %v7_6 : i32 to i64
        %v14_7 = arith.extsi %v7_7 : i32 to i64
        scf.if %v9_0 {
          %8 = llvm.getelementptr %out[%v14_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_0, %8 : f32, !llvm.ptr
        }
        scf.if %v9_1 {
          %8 = llvm.getelementptr %out[%v14_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_1, %8 : f32, !llvm.ptr
        }
        scf.if %v9_2 {
          %8 = llvm.getelementptr %out[%v14_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_2, %8 : f32, !llvm.ptr
        }
        scf.if %v9_3 {
          %8 = llvm.getelementptr %out[%v14_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_3, %8 : f32, !llvm.ptr
        }
        scf.if %v9_4 {
          %8 = llvm.getelementptr %out[%v14_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_4, %8 : f32, !llvm.ptr
        }
        scf.if %v9_5 {
          %8 = llvm.getelementptr %out[%v14_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_5, %8 : f32, !llvm.ptr
        }
        scf.if %v9_6 {
          %8 = llvm.getelementptr %out[%v14_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_6, %8 : f32, !llvm.ptr
        }
        scf.if %v9_7 {
          %8 = llvm.getelementptr %out[%v14_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v13_7, %8 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

module attributes {gpu.container_module} {
  gpu.module @add_kernel_module {
    gpu.func @add_kernel(%x: !llvm.ptr, %y: !llvm.ptr, %out: !llvm.ptr, %n: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
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
      %base3 = arith.muli %lane, %c4_i32 : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.addi %3, %slot : i32
      %5 = arith.cmpi slt, %4, %mt_grid_x : i32
      scf.if %5 {
        %6 = nvvm.read.ptx.sreg.ctaid.x : i32
        %7 = arith.muli %6, %c4_i32 : i32
        %s0 = arith.addi %7, %slot : i32
        %s1 = arith.muli %s0, %c256_i32 : i32
        %v2_1 = arith.addi %base3, %c1_i32 : i32
        %v2_2 = arith.addi %base3, %c2_i32 : i32
        %v2_3 = arith.addi %base3, %c3_i32 : i32
        %v2_4 = arith.addi %base3, %c128_i32 : i32
        %v2_5 = arith.addi %base3, %c129_i32 : i32
        %v2_6 = arith.addi %base3, %c130_i32 : i32
        %v2_7 = arith.addi %base3, %c131_i32 : i32
        %v4_0 = arith.addi %s1, %base3 : i32
        %v4_1 = arith.addi %s1, %v2_1 : i32
        %v4_2 = arith.addi %s1, %v2_2 : i32
        %v4_3 = arith.addi %s1, %v2_3 : i32
        %v4_4 = arith.addi %s1, %v2_4 : i32
        %v4_5 = arith.addi %s1, %v2_5 : i32
        %v4_6 = arith.addi %s1, %v2_6 : i32
        %v4_7 = arith.addi %s1, %v2_7 : i32
        %v5_0 = arith.extsi %v4_0 : i32 to i64
        %v5_1 = arith.extsi %v4_1 : i32 to i64
        %v5_2 = arith.extsi %v4_2 : i32 to i64
        %v5_3 = arith.extsi %v4_3 : i32 to i64
        %v5_4 = arith.extsi %v4_4 : i32 to i64
        %v5_5 = arith.extsi %v4_5 : i32 to i64
        %v5_6 = arith.extsi %v4_6 : i32 to i64
        %v5_7 = arith.extsi %v4_7 : i32 to i64
        %v6_0 = arith.cmpi slt, %v4_0, %n : i32
        %v6_1 = arith.cmpi slt, %v4_1, %n : i32
        %v6_2 = arith.cmpi slt, %v4_2, %n : i32
        %v6_3 = arith.cmpi slt, %v4_3, %n : i32
        %v6_4 = arith.cmpi slt, %v4_4, %n : i32
        %v6_5 = arith.cmpi slt, %v4_5, %n : i32
        %v6_6 = arith.cmpi slt, %v4_6, %n : i32
        %v6_7 = arith.cmpi slt, %v4_7, %n : i32
        %v7_0 = scf.if %v6_0 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_1 = scf.if %v6_1 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_2 = scf.if %v6_2 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_3 = scf.if %v6_3 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_4 = scf.if %v6_4 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_5 = scf.if %v6_5 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_6 = scf.if %v6_6 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_7 = scf.if %v6_7 -> (f32) {
          %8 = llvm.getelementptr %x[%v5_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v8_0 = arith.extsi %v4_0 : i32 to i64
        %v8_1 = arith.extsi %v4_1 : i32 to i64
        %v8_2 = arith.extsi %v4_2 : i32 to i64
        %v8_3 = arith.extsi %v4_3 : i32 to i64
        %v8_4 = arith.extsi %v4_4 : i32 to i64
        %v8_5 = arith.extsi %v4_5 : i32 to i64
        %v8_6 = arith.extsi %v4_6 : i32 to i64
        %v8_7 = arith.extsi %v4_7 : i32 to i64
        %v9_0 = scf.if %v6_0 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_1 = scf.if %v6_1 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_2 = scf.if %v6_2 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_3 = scf.if %v6_3 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_4 = scf.if %v6_4 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_5 = scf.if %v6_5 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_6 = scf.if %v6_6 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v9_7 = scf.if %v6_7 -> (f32) {
          %8 = llvm.getelementptr %y[%v8_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %9 = llvm.load %8 : !llvm.ptr -> f32
          scf.yield %9 : f32
        } else {
          scf.yield %cst : f32
        }
        %v10_0 = arith.addf %v7_0, %v9_0 : f32
        %v10_1 = arith.addf %v7_1, %v9_1 : f32
        %v10_2 = arith.addf %v7_2, %v9_2 : f32
        %v10_3 = arith.addf %v7_3, %v9_3 : f32
        %v10_4 = arith.addf %v7_4, %v9_4 : f32
        %v10_5 = arith.addf %v7_5, %v9_5 : f32
        %v10_6 = arith.addf %v7_6, %v9_6 : f32
        %v10_7 = arith.addf %v7_7, %v9_7 : f32
        %v11_0 = arith.extsi %v4_0 : i32 to i64
        %v11_1 = arith.extsi %v4_1 : i32 to i64
        %v11_2 = arith.extsi %v4_2 : i32 to i64
        %v11_3 = arith.extsi %v4_3 : i32 to i64
        %v11_4 = arith.extsi %v4_4 : i32 to i64
        %v11_5 = arith.extsi %v4_5 : i32 to i64
        %v11_6 = arith.extsi %v4_6 : i32 to i64
        %v11_7 = arith.extsi %v4_7 : i32 to i64
        scf.if %v6_0 {
          %8 = llvm.getelementptr %out[%v11_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_0, %8 : f32, !llvm.ptr
        }
        scf.if %v6_1 {
          %8 = llvm.getelementptr %out[%v11_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_1, %8 : f32, !llvm.ptr
        }
        scf.if %v6_2 {
          %8 = llvm.getelementptr %out[%v11_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_2, %8 : f32, !llvm.ptr
        }
        scf.if %v6_3 {
          %8 = llvm.getelementptr %out[%v11_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_3, %8 : f32, !llvm.ptr
        }
        scf.if %v6_4 {
          %8 = llvm.getelementptr %out[%v11_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_4, %8 : f32, !llvm.ptr
        }
        scf.if %v6_5 {
          %8 = llvm.getelementptr %out[%v11_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_5, %8 : f32, !llvm.ptr
        }
        scf.if %v6_6 {
          %8 = llvm.getelementptr %out[%v11_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_6, %8 : f32, !llvm.ptr
        }
        scf.if %v6_7 {
          %8 = llvm.getelementptr %out[%v11_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v10_7, %8 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

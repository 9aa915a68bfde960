module attributes {gpu.container_module} {
  gpu.module @relu_kernel_module {
    gpu.func @relu_kernel(%x: !llvm.ptr, %out: !llvm.ptr, %n: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c128_i32 = arith.constant 128 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
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
        %s1 = arith.muli %s0, %c128_i32 : i32
        %v2_1 = arith.addi %base3, %c1_i32 : i32
        %v2_2 = arith.addi %base3, %c2_i32 : i32
        %v2_3 = arith.addi %base3, %c3_i32 : i32
        %v4_0 = arith.addi %s1, %base3 : i32
        %v4_1 = arith.addi %s1, %v2_1 : i32
        %v4_2 = arith.addi %s1, %v2_2 : i32
        %v4_3 = arith.addi %s1, %v2_3 : i32
        %v5_0 = arith.extsi %v4_0 : i32 to i64
        %v5_1 = arith.extsi %v4_1 : i32 to i64
        %v5_2 = arith.extsi %v4_2 : i32 to i64
        %v5_3 = arith.extsi %v4_3 : i32 to i64
        %v6_0 = arith.cmpi slt, %v4_0, %n : i32
        %v6_1 = arith.cmpi slt, %v4_1, %n : i32
        %v6_2 = arith.cmpi slt, %v4_2, %n : i32
        %v6_3 = arith.cmpi slt, %v4_3, %n : i32
        %v7_0 = scf.if %v6_0 -> (f32) {
          %20 = llvm.getelementptr %x[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_1 = scf.if %v6_1 -> (f32) {
          %20 = llvm.getelementptr %x[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_2 = scf.if %v6_2 -> (f32) {
          %20 = llvm.getelementptr %x[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_3 = scf.if %v6_3 -> (f32) {
          %20 = llvm.getelementptr %x[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %21 = llvm.load %20 : !llvm.ptr -> f32
          scf.yield %21 : f32
        } else {
          scf.yield %cst : f32
        }
        %8 = arith.cmpf ogt, %v7_0, %cst : f32
        %9 = arith.cmpf une, %v7_0, %v7_0 : f32
        %10 = arith.ori %9, %8 : i1
        %v8_0 = arith.select %10, %v7_0, %cst : f32
        %11 = arith.cmpf ogt, %v7_1, %cst : f32
        %12 = arith.cmpf une, %v7_1, %v7_1 : f32
        %13 = arith.ori %12, %11 : i1
        %v8_1 = arith.select %13, %v7_1, %cst : f32
        %14 = arith.cmpf ogt, %v7_2, %cst : f32
        %15 = arith.cmpf une, %v7_2, %v7_2 : f32
        %16 = arith.ori %15, %14 : i1
        %v8_2 = arith.select %16, %v7_2, %cst : f32
        %17 = arith.cmpf ogt, %v7_3, %cst : f32
        %18 = arith.cmpf une, %v7_3, %v7_3 : f32
        %19 = arith.ori %18, %17 : i1
        %v8_3 = arith.select %19, %v7_3, %cst : f32
        %v9_0 = arith.extsi %v4_0 : i32 to i64
        %v9_1 = arith.extsi %v4_1 : i32 to i64
        %v9_2 = arith.extsi %v4_2 : i32 to i64
        %v9_3 = arith.extsi %v4_3 : i32 to i64
        scf.if %v6_0 {
          %20 = llvm.getelementptr %out[%v9_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v8_0, %20 : f32, !llvm.ptr
        }
        scf.if %v6_1 {
          %20 = llvm.getelementptr %out[%v9_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v8_1, %20 : f32, !llvm.ptr
        }
        scf.if %v6_2 {
          %20 = llvm.getelementptr %out[%v9_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v8_2, %20 : f32, !llvm.ptr
        }
        scf.if %v6_3 {
          %20 = llvm.getelementptr %out[%v9_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %v8_3, %20 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

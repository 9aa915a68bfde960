module attributes {gpu.container_module} {
  gpu.module @row_cumsum_kernel_module {
    gpu.func @row_cumsum_kernel(%x_ptr: !llvm.ptr, %out_ptr: !llvm.ptr, %n_cols: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %cst = arith.constant 0.000000e+00 : f32
      %false = arith.constant false
      %c0_i32 = arith.constant 0 : i32
      %c-1_i32 = arith.constant -1 : i32
      %c8_i32 = arith.constant 8 : i32
      %c16_i32 = arith.constant 16 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %base4 = arith.muli %lane, %c4_i32 : i32
      %2 = nvvm.read.ptx.sreg.ctaid.x : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.addi %3, %slot : i32
      %5 = arith.cmpi slt, %4, %mt_grid_x : i32
      scf.if %5 {
        %6 = nvvm.read.ptx.sreg.ctaid.x : i32
        %7 = arith.muli %6, %c4_i32 : i32
        %s0 = arith.addi %7, %slot : i32
        %s1 = arith.muli %s0, %n_cols : i32
        %s2 = arith.extsi %s1 : i32 to i64
        %v3_1 = arith.addi %base4, %c1_i32 : i32
        %v3_2 = arith.addi %base4, %c2_i32 : i32
        %v3_3 = arith.addi %base4, %c3_i32 : i32
        %8 = arith.extsi %base4 : i32 to i64
        %v5_0 = arith.addi %s2, %8 : i64
        %9 = arith.extsi %v3_1 : i32 to i64
        %v5_1 = arith.addi %s2, %9 : i64
        %10 = arith.extsi %v3_2 : i32 to i64
        %v5_2 = arith.addi %s2, %10 : i64
        %11 = arith.extsi %v3_3 : i32 to i64
        %v5_3 = arith.addi %s2, %11 : i64
        %v6_0 = arith.cmpi slt, %base4, %n_cols : i32
        %v6_1 = arith.cmpi slt, %v3_1, %n_cols : i32
        %v6_2 = arith.cmpi slt, %v3_2, %n_cols : i32
        %v6_3 = arith.cmpi slt, %v3_3, %n_cols : i32
        %v7_0 = scf.if %v6_0 -> (f32) {
          %45 = llvm.getelementptr %x_ptr[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %46 = llvm.load %45 : !llvm.ptr -> f32
          scf.yield %46 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_1 = scf.if %v6_1 -> (f32) {
          %45 = llvm.getelementptr %x_ptr[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %46 = llvm.load %45 : !llvm.ptr -> f32
          scf.yield %46 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_2 = scf.if %v6_2 -> (f32) {
          %45 = llvm.getelementptr %x_ptr[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %46 = llvm.load %45 : !llvm.ptr -> f32
          scf.yield %46 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_3 = scf.if %v6_3 -> (f32) {
          %45 = llvm.getelementptr %x_ptr[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %46 = llvm.load %45 : !llvm.ptr -> f32
          scf.yield %46 : f32
        } else {
          scf.yield %cst : f32
        }
        %acc11 = arith.addf %v7_0, %v7_1 : f32
        %acc13 = arith.addf %acc11, %v7_2 : f32
        %acc15 = arith.addf %acc13, %v7_3 : f32
        %12 = arith.andi %lane, %c1_i32 : i32
        %before17 = arith.cmpi ne, %12, %c0_i32 : i32
        %sh18 = nvvm.shfl.sync  bfly %c-1_i32, %acc15, %c1_i32, %c31_i32 : f32 -> f32
        %13 = arith.addf %sh18, %acc15 : f32
        %14 = arith.select %false, %13, %sh18 : f32
        %pre19 = arith.select %before17, %14, %acc15 : f32
        %15 = arith.addf %acc15, %sh18 : f32
        %16 = arith.addf %sh18, %acc15 : f32
        %tot20 = arith.select %before17, %16, %15 : f32
        %has16 = arith.ori %false, %before17 : i1
        %17 = arith.andi %lane, %c2_i32 : i32
        %before21 = arith.cmpi ne, %17, %c0_i32 : i32
        %sh22 = nvvm.shfl.sync  bfly %c-1_i32, %tot20, %c2_i32, %c31_i32 : f32 -> f32
        %18 = arith.addf %sh22, %pre19 : f32
        %19 = arith.select %has16, %18, %sh22 : f32
        %pre23 = arith.select %before21, %19, %pre19 : f32
        %20 = arith.addf %tot20, %sh22 : f32
        %21 = arith.addf %sh22, %tot20 : f32
        %tot24 = arith.select %before21, %21, %20 : f32
        %has16_0 = arith.ori %has16, %before21 : i1
        %22 = arith.andi %lane, %c4_i32 : i32
        %before25 = arith.cmpi ne, %22, %c0_i32 : i32
        %sh26 = nvvm.shfl.sync  bfly %c-1_i32, %tot24, %c4_i32, %c31_i32 : f32 -> f32
        %23 = arith.addf %sh26, %pre23 : f32
        %24 = arith.select %has16_0, %23, %sh26 : f32
        %pre27 = arith.select %before25, %24, %pre23 : f32
        %25 = arith.addf %tot24, %sh26 : f32
        %26 = arith.addf %sh26, %tot24 : f32
        %tot28 = arith.select %before25, %26, %25 : f32
        %has16_1 = arith.ori %has16_0, %before25 : i1
        %27 = arith.andi %lane, %c8_i32 : i32
        %before29 = arith.cmpi ne, %27, %c0_i32 : i32
        %sh30 = nvvm.shfl.sync  bfly %c-1_i32, %tot28, %c8_i32, %c31_i32 : f32 -> f32
        %28 = arith.addf %sh30, %pre27 : f32
        %29 = arith.select %has16_1, %28, %sh30 : f32
        %pre31 = arith.select %before29, %29, %pre27 : f32
        %30 = arith.addf %tot28, %sh30 : f32
        %31 = arith.addf %sh30, %tot28 : f32
        %tot32 = arith.select %before29, %31, %30 : f32
        %has16_2 = arith.ori %has16_1, %before29 : i1
        %32 = arith.andi %lane, %c16_i32 : i32
        %before33 = arith.cmpi ne, %32, %c0_i32 : i32
        %sh34 = nvvm.shfl.sync  bfly %c-1_i32, %tot32, %c16_i32, %c31_i32 : f32 -> f32
        %33 = arith.addf %sh34, %pre31 : f32
        %34 = arith.select %has16_2, %33, %sh34 : f32
        %pre35 = arith.select %before33, %34, %pre31 : f32
        %35 = arith.addf %tot32, %sh34 : f32
        %36 = arith.addf %sh34, %tot32 : f32
        %tot36 = arith.select %before33, %36, %35 : f32
        %has16_3 = arith.ori %has16_2, %before33 : i1
        %37 = arith.addf %pre35, %v7_0 : f32
        %scan8_0 = arith.select %has16_3, %37, %v7_0 : f32
        %38 = arith.addf %pre35, %acc11 : f32
        %scan8_1 = arith.select %has16_3, %38, %acc11 : f32
        %39 = arith.addf %pre35, %acc13 : f32
        %scan8_2 = arith.select %has16_3, %39, %acc13 : f32
        %40 = arith.addf %pre35, %acc15 : f32
        %scan8_3 = arith.select %has16_3, %40, %acc15 : f32
        %s37 = arith.extsi %s1 : i32 to i64
        %41 = arith.extsi %base4 : i32 to i64
        %v38_0 = arith.addi %s37, %41 : i64
        %42 = arith.extsi %v3_1 : i32 to i64
        %v38_1 = arith.addi %s37, %42 : i64
        %43 = arith.extsi %v3_2 : i32 to i64
        %v38_2 = arith.addi %s37, %43 : i64
        %44 = arith.extsi %v3_3 : i32 to i64
        %v38_3 = arith.addi %s37, %44 : i64
        scf.if %v6_0 {
          %45 = llvm.getelementptr %out_ptr[%v38_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %scan8_0, %45 : f32, !llvm.ptr
        }
        scf.if %v6_1 {
          %45 = llvm.getelementptr %out_ptr[%v38_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %scan8_1, %45 : f32, !llvm.ptr
        }
        scf.if %v6_2 {
          %45 = llvm.getelementptr %out_ptr[%v38_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %scan8_2, %45 : f32, !llvm.ptr
        }
        scf.if %v6_3 {
          %45 = llvm.getelementptr %out_ptr[%v38_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %scan8_3, %45 : f32, !llvm.ptr
        }
      }
      gpu.return
    }
  }
}

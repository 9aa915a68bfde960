module attributes {gpu.container_module} {
  gpu.module @matmul_2d_runtime_kernel_module {
    llvm.mlir.global internal @mt_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
    gpu.func @matmul_2d_runtime_kernel(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr, %M: i32, %N: i32, %K: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
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
      %base7 = arith.andi %lane, %c3_i32 : i32
      %2 = arith.andi %lane, %c1_i32 : i32
      %base17 = arith.muli %2, %c4_i32 : i32
      %3 = arith.shrsi %lane, %c1_i32 : i32
      %base24 = arith.andi %3, %c3_i32 : i32
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
        %10:4 = scf.for %i5 = %c0_i32 to %K step %c1_i32 iter_args(%c4_0 = %cst, %c4_1 = %cst, %c4_2 = %cst, %c4_3 = %cst) -> (f32, f32, f32, f32)  : i32 {
          %v8_0 = arith.addi %s1, %base7 : i32
          %v9_0 = arith.muli %v8_0, %K : i32
          %v10_0 = arith.extsi %v9_0 : i32 to i64
          %17 = arith.extsi %i5 : i32 to i64
          %v11_0 = arith.addi %v10_0, %17 : i64
          %v12_0 = arith.cmpi slt, %v8_0, %M : i32
          %v13_0 = scf.if %v12_0 -> (f32) {
            %32 = llvm.getelementptr %a[%v11_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %33 = llvm.load %32 : !llvm.ptr -> f32
            scf.yield %33 : f32
          } else {
            scf.yield %cst : f32
          }
          %s14 = arith.muli %i5, %N : i32
          %s15 = arith.extsi %s14 : i32 to i64
          %v16_1 = arith.addi %base17, %c1_i32 : i32
          %v16_2 = arith.addi %base17, %c2_i32 : i32
          %v16_3 = arith.addi %base17, %c3_i32 : i32
          %v18_0 = arith.addi %s3, %base17 : i32
          %v18_1 = arith.addi %s3, %v16_1 : i32
          %v18_2 = arith.addi %s3, %v16_2 : i32
          %v18_3 = arith.addi %s3, %v16_3 : i32
          %18 = arith.extsi %v18_0 : i32 to i64
          %v19_0 = arith.addi %s15, %18 : i64
          %19 = arith.extsi %v18_1 : i32 to i64
          %v19_1 = arith.addi %s15, %19 : i64
          %20 = arith.extsi %v18_2 : i32 to i64
          %v19_2 = arith.addi %s15, %20 : i64
          %21 = arith.extsi %v18_3 : i32 to i64
          %v19_3 = arith.addi %s15, %21 : i64
          %v20_0 = arith.cmpi slt, %v18_0, %N : i32
          %v20_1 = arith.cmpi slt, %v18_1, %N : i32
          %v20_2 = arith.cmpi slt, %v18_2, %N : i32
          %v20_3 = arith.cmpi slt, %v18_3, %N : i32
          %v21_0 = scf.if %v20_0 -> (f32) {
            %32 = llvm.getelementptr %b[%v19_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %33 = llvm.load %32 : !llvm.ptr -> f32
            scf.yield %33 : f32
          } else {
            scf.yield %cst : f32
          }
          %v21_1 = scf.if %v20_1 -> (f32) {
            %32 = llvm.getelementptr %b[%v19_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %33 = llvm.load %32 : !llvm.ptr -> f32
            scf.yield %33 : f32
          } else {
            scf.yield %cst : f32
          }
          %v21_2 = scf.if %v20_2 -> (f32) {
            %32 = llvm.getelementptr %b[%v19_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %33 = llvm.load %32 : !llvm.ptr -> f32
            scf.yield %33 : f32
          } else {
            scf.yield %cst : f32
          }
          %v21_3 = scf.if %v20_3 -> (f32) {
            %32 = llvm.getelementptr %b[%v19_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            %33 = llvm.load %32 : !llvm.ptr -> f32
            scf.yield %33 : f32
          } else {
            scf.yield %cst : f32
          }
          nvvm.bar.warp.sync %c-1_i32 : i32
          %22 = arith.muli %slot, %c4_i32 : i32
          %23 = arith.addi %22, %base7 : i32
          %24 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %25 = llvm.getelementptr %24[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %26 = llvm.getelementptr %25[%23] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %v13_0, %26 : f32, !llvm.ptr<3>
          nvvm.bar.warp.sync %c-1_i32 : i32
          %27 = arith.muli %slot, %c4_i32 : i32
          %28 = arith.addi %27, %base24 : i32
          %29 = llvm.mlir.addressof @mt_smem : !llvm.ptr<3>
          %30 = llvm.getelementptr %29[%c0_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %31 = llvm.getelementptr %30[%28] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %v23_0 = llvm.load %31 : !llvm.ptr<3> -> f32
          %v25_0 = arith.mulf %v23_0, %v21_0 : f32
          %v25_1 = arith.mulf %v23_0, %v21_1 : f32
          %v25_2 = arith.mulf %v23_0, %v21_2 : f32
          %v25_3 = arith.mulf %v23_0, %v21_3 : f32
          %v26_0 = arith.addf %c4_0, %v25_0 : f32
          %v26_1 = arith.addf %c4_1, %v25_1 : f32
          %v26_2 = arith.addf %c4_2, %v25_2 : f32
          %v26_3 = arith.addf %c4_3, %v25_3 : f32
          scf.yield %v26_0, %v26_1, %v26_2, %v26_3 : f32, f32, f32, f32
        }
        %v29_0 = arith.addi %s1, %base24 : i32
        %v30_0 = arith.muli %v29_0, %N : i32
        %v31_0 = arith.extsi %v30_0 : i32 to i64
        %v32_1 = arith.addi %base17, %c1_i32 : i32
        %v32_2 = arith.addi %base17, %c2_i32 : i32
        %v32_3 = arith.addi %base17, %c3_i32 : i32
        %v33_0 = arith.addi %s3, %base17 : i32
        %v33_1 = arith.addi %s3, %v32_1 : i32
        %v33_2 = arith.addi %s3, %v32_2 : i32
        %v33_3 = arith.addi %s3, %v32_3 : i32
        %11 = arith.extsi %v33_0 : i32 to i64
        %v34_0 = arith.addi %v31_0, %11 : i64
        %12 = arith.extsi %v33_1 : i32 to i64
        %v34_1 = arith.addi %v31_0, %12 : i64
        %13 = arith.extsi %v33_2 : i32 to i64
        %v34_2 = arith.addi %v31_0, %13 : i64
        %14 = arith.extsi %v33_3 : i32 to i64
        %v34_3 = arith.addi %v31_0, %14 : i64
        %v35_0 = arith.cmpi slt, %v29_0, %M : i32
        %v36_0 = arith.cmpi slt, %v33_0, %N : i32
        %v36_1 = arith.cmpi slt, %v33_1, %N : i32
        %v36_2 = arith.cmpi slt, %v33_2, %N : i32
        %v36_3 = arith.cmpi slt, %v33_3, %N : i32
        %v37_0 = arith.andi %v35_0, %v36_0 : i1
        %v37_1 = arith.andi %v35_0, %v36_1 : i1
        %v37_2 = arith.andi %v35_0, %v36_2 : i1
        %v37_3 = arith.andi %v35_0, %v36_3 : i1
        %15 = arith.andi %lane, %c24_i32 : i32
        %16 = arith.cmpi eq, %15, %c0_i32 : i32
        scf.if %16 {
          scf.if %v37_0 {
            %17 = llvm.getelementptr %c[%v34_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %10#0, %17 : f32, !llvm.ptr
          }
          scf.if %v37_1 {
            %17 = llvm.getelementptr %c[%v34_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %10#1, %17 : f32, !llvm.ptr
          }
          scf.if %v37_2 {
            %17 = llvm.getelementptr %c[%v34_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %10#2, %17 : f32, !llvm.ptr
          }
          scf.if %v37_3 {
            %17 = llvm.getelementptr %c[%v34_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %10#3, %17 : f32, !llvm.ptr
          }
        }
      }
      gpu.return
    }
  }
}

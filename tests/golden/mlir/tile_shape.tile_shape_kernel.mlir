module attributes {gpu.container_module} {
  gpu.module @tile_shape_kernel_module {
    gpu.func @tile_shape_kernel(%out: !llvm.ptr, %M: i32, %N: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c3_i32 = arith.constant 3 : i32
      %c7_i32 = arith.constant 7 : i32
      %c8_i32 = arith.constant 8 : i32
      %c2_i32 = arith.constant 2 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %warp = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.andi %warp, %c1_i32 : i32
      %3 = arith.muli %2, %c4_i32 : i32
      %4 = arith.shrsi %lane, %c3_i32 : i32
      %5 = arith.andi %4, %c3_i32 : i32
      %base1 = arith.addi %5, %3 : i32
      %6 = arith.andi %lane, %c7_i32 : i32
      %base4 = arith.muli %6, %c4_i32 : i32
      %v0_1 = arith.addi %base1, %c8_i32 : i32
      %v2_0 = arith.muli %base1, %N : i32
      %v2_1 = arith.muli %v0_1, %N : i32
      %v3_1 = arith.addi %base4, %c1_i32 : i32
      %v3_2 = arith.addi %base4, %c2_i32 : i32
      %v3_3 = arith.addi %base4, %c3_i32 : i32
      %v5_0 = arith.addi %v2_0, %base4 : i32
      %v5_1 = arith.addi %v2_0, %v3_1 : i32
      %v5_2 = arith.addi %v2_0, %v3_2 : i32
      %v5_3 = arith.addi %v2_0, %v3_3 : i32
      %v5_4 = arith.addi %v2_1, %base4 : i32
      %v5_5 = arith.addi %v2_1, %v3_1 : i32
      %v5_6 = arith.addi %v2_1, %v3_2 : i32
      %v5_7 = arith.addi %v2_1, %v3_3 : i32
      %v6_0 = arith.extsi %v5_0 : i32 to i64
      %v6_1 = arith.extsi %v5_1 : i32 to i64
      %v6_2 = arith.extsi %v5_2 : i32 to i64
      %v6_3 = arith.extsi %v5_3 : i32 to i64
      %v6_4 = arith.extsi %v5_4 : i32 to i64
      %v6_5 = arith.extsi %v5_5 : i32 to i64
      %v6_6 = arith.extsi %v5_6 : i32 to i64
      %v6_7 = arith.extsi %v5_7 : i32 to i64
      %v7_0 = arith.cmpi slt, %base1, %M : i32
      %v7_1 = arith.cmpi slt, %v0_1, %M : i32
      %v8_0 = arith.cmpi slt, %base4, %N : i32
      %v8_1 = arith.cmpi slt, %v3_1, %N : i32
      %v8_2 = arith.cmpi slt, %v3_2, %N : i32
      %v8_3 = arith.cmpi slt, %v3_3, %N : i32
      %v9_0 = arith.andi %v7_0, %v8_0 : i1
      %v9_1 = arith.andi %v7_0, %v8_1 : i1
      %v9_2 = arith.andi %v7_0, %v8_2 : i1
      %v9_3 = arith.andi %v7_0, %v8_3 : i1
      %v9_4 = arith.andi %v7_1, %v8_0 : i1
      %v9_5 = arith.andi %v7_1, %v8_1 : i1
      %v9_6 = arith.andi %v7_1, %v8_2 : i1
      %v9_7 = arith.andi %v7_1, %v8_3 : i1
      scf.if %v9_0 {
        %7 = llvm.getelementptr %out[%v6_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_0 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_1 {
        %7 = llvm.getelementptr %out[%v6_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_1 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_2 {
        %7 = llvm.getelementptr %out[%v6_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_2 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_3 {
        %7 = llvm.getelementptr %out[%v6_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_3 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_4 {
        %7 = llvm.getelementptr %out[%v6_4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_4 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_5 {
        %7 = llvm.getelementptr %out[%v6_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_5 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_6 {
        %7 = llvm.getelementptr %out[%v6_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_6 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      scf.if %v9_7 {
        %7 = llvm.getelementptr %out[%v6_7] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = arith.sitofp %v5_7 : i32 to f32
        llvm.store %8, %7 : f32, !llvm.ptr
      }
      gpu.return
    }
  }
}

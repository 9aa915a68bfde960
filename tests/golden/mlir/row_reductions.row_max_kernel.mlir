module attributes {gpu.container_module} {
  gpu.module @row_max_kernel_module {
    gpu.func @row_max_kernel(%x: !llvm.ptr, %out: !llvm.ptr, %n_cols: i32, %mt_grid_x: i32, %mt_grid_y: i32, %mt_grid_z: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c31_i32 = arith.constant 31 : i32
      %c5_i32 = arith.constant 5 : i32
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %cst = arith.constant 0xFF800000 : f32
      %c-1_i32 = arith.constant -1 : i32
      %c30_i32 = arith.constant 30 : i32
      %c0_i32 = arith.constant 0 : i32
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %lane = arith.andi %0, %c31_i32 : i32
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %slot = arith.shrsi %1, %c5_i32 : i32
      %2 = arith.andi %lane, %c1_i32 : i32
      %base3 = arith.muli %2, %c4_i32 : i32
      %3 = nvvm.read.ptx.sreg.ctaid.x : i32
      %4 = arith.muli %3, %c4_i32 : i32
      %5 = arith.addi %4, %slot : i32
      %6 = arith.cmpi slt, %5, %mt_grid_x : i32
      scf.if %6 {
        %7 = nvvm.read.ptx.sreg.ctaid.x : i32
        %8 = arith.muli %7, %c4_i32 : i32
        %s0 = arith.addi %8, %slot : i32
        %s1 = arith.muli %s0, %n_cols : i32
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
        %v6_0 = arith.cmpi slt, %base3, %n_cols : i32
        %v6_1 = arith.cmpi slt, %v2_1, %n_cols : i32
        %v6_2 = arith.cmpi slt, %v2_2, %n_cols : i32
        %v6_3 = arith.cmpi slt, %v2_3, %n_cols : i32
        %v7_0 = scf.if %v6_0 -> (f32) {
          %13 = llvm.getelementptr %x[%v5_0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_1 = scf.if %v6_1 -> (f32) {
          %13 = llvm.getelementptr %x[%v5_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_2 = scf.if %v6_2 -> (f32) {
          %13 = llvm.getelementptr %x[%v5_2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %v7_3 = scf.if %v6_3 -> (f32) {
          %13 = llvm.getelementptr %x[%v5_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %14 = llvm.load %13 : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %9 = arith.maxnumf %v7_0, %v7_1 : f32
        %10 = arith.maxnumf %9, %v7_2 : f32
        %red8 = arith.maxnumf %10, %v7_3 : f32
        %sh9 = nvvm.shfl.sync  bfly %c-1_i32, %red8, %c1_i32, %c31_i32 : f32 -> f32
        %red10 = arith.maxnumf %red8, %sh9 : f32
        %s11 = arith.extsi %s0 : i32 to i64
        %v12_0 = arith.cmpi slt, %base3, %c1_i32 : i32
        %v12_1 = arith.cmpi slt, %v2_1, %c1_i32 : i32
        %v12_2 = arith.cmpi slt, %v2_2, %c1_i32 : i32
        %v12_3 = arith.cmpi slt, %v2_3, %c1_i32 : i32
        %11 = arith.andi %lane, %c30_i32 : i32
        %12 = arith.cmpi eq, %11, %c0_i32 : i32
        scf.if %12 {
          scf.if %v12_0 {
            %13 = llvm.getelementptr %out[%s11] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red10, %13 : f32, !llvm.ptr
          }
          scf.if %v12_1 {
            %13 = llvm.getelementptr %out[%s11] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red10, %13 : f32, !llvm.ptr
          }
          scf.if %v12_2 {
            %13 = llvm.getelementptr %out[%s11] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red10, %13 : f32, !llvm.ptr
          }
          scf.if %v12_3 {
            %13 = llvm.getelementptr %out[%s11] : (!llvm.ptr, i64) -> !llvm.ptr, f32
            llvm.store %red10, %13 : f32, !llvm.ptr
          }
        }
      }
      gpu.return
    }
  }
}

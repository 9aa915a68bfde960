# examples/row_reductions.py row_max_kernel BLOCK=8
reduce_smem_7[threadIdx.x] = fmaxf(reduce_smem_7[threadIdx.x], reduce_smem_7[threadIdx.x + stride_7]);

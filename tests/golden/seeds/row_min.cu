# examples/row_reductions.py row_min_kernel BLOCK=8
reduce_smem_7[threadIdx.x] = fminf(reduce_smem_7[threadIdx.x], reduce_smem_7[threadIdx.x + stride_7]);

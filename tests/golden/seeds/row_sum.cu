# examples/row_reductions.py row_sum_kernel BLOCK=8
__shared__ float reduce_smem_7[8];

reduce_smem_7[threadIdx.x] = v6;
__syncthreads();
for (int stride_7 = 4; stride_7 > 0; stride_7 >>= 1) {
    if (threadIdx.x < stride_7) {
        reduce_smem_7[threadIdx.x] += reduce_smem_7[threadIdx.x + stride_7];
    }
    __syncthreads();
}
float v7 = reduce_smem_7[0];

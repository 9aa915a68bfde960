extern "C" __global__
void long_row_sum_kernel(float* x, float* out) {
    __shared__ float reduce_smem_21[4];

    int v0 = blockIdx.x;
    int v1 = (v0 * 10);
    int v3 = threadIdx.x;
    int v4 = (0 + v3);
    int v5 = (v1 + v4);
    bool v6 = (v4 < 10);
    float v7 = (v6 ? x[v5] : 0.0f);
    float v8 = (0.0f + v7);
    int v10 = (4 + v3);
    int v11 = (v1 + v10);
    bool v12 = (v10 < 10);
    float v13 = (v12 ? x[v11] : 0.0f);
    float v14 = (v8 + v13);
    int v16 = (8 + v3);
    int v17 = (v1 + v16);
    bool v18 = (v16 < 10);
    float v19 = (v18 ? x[v17] : 0.0f);
    float v20 = (v14 + v19);
    reduce_smem_21[threadIdx.x] = v20;
    __syncthreads();
    for (int stride_21 = 2; stride_21 > 0; stride_21 >>= 1) {
        if (threadIdx.x < stride_21) {
            reduce_smem_21[threadIdx.x] += reduce_smem_21[threadIdx.x + stride_21];
        }
        __syncthreads();
    }
    float v21 = reduce_smem_21[0];
    bool v23 = (v3 < 1);
    if (v23) {
        out[v0] = v21;
    }
}

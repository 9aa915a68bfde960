extern "C" __global__
void row_max_kernel(float* x, float* out, int n_cols) {
    __shared__ float reduce_smem_7[8];

    int v0 = blockIdx.x;
    int v1 = (v0 * n_cols);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v2 < n_cols);
    float v6 = (v5 ? x[v3] : __int_as_float(0xff800000));
    reduce_smem_7[threadIdx.x] = v6;
    __syncthreads();
    for (int stride_7 = 4; stride_7 > 0; stride_7 >>= 1) {
        if (threadIdx.x < stride_7) {
            reduce_smem_7[threadIdx.x] = fmaxf(reduce_smem_7[threadIdx.x], reduce_smem_7[threadIdx.x + stride_7]);
        }
        __syncthreads();
    }
    float v7 = reduce_smem_7[0];
    bool v9 = (v2 < 1);
    if (v9) {
        out[v0] = v7;
    }
}

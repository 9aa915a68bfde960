extern "C" __global__
void matrix_add_2d_kernel(float* x, float* y, float* out, int M, int N) {
    int tile_i = threadIdx.x / 32;
    int tile_j = threadIdx.x % 32;
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 32);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    bool v13 = (v4 < M);
    bool v14 = (v10 < N);
    bool v15 = (v13 && v14);
    float v16 = (v15 ? x[v11] : 0.0f);
    float v18 = (v15 ? y[v11] : 0.0f);
    float v19 = (v16 + v18);
    if (v15) {
        out[v11] = v19;
    }
}

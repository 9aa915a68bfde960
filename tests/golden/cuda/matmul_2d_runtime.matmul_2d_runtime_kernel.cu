extern "C" __global__
void matmul_2d_runtime_kernel(float* a, float* b, float* c, int M, int N, int K) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    float v0 = 0.0f;
    int v1 = blockIdx.x;
    int v2 = (v1 * 4);
    int v4 = tile_i;
    int v5 = (v2 + v4);
    int v6 = blockIdx.y;
    int v7 = (v6 * 8);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    float v12 = v0;
    for (int v11 = 0; v11 < K; v11 += 1) {
        int v13 = (v5 * K);
        int v15 = (v13 + v11);
        bool v16 = (v5 < M);
        float v17 = (v16 ? a[v15] : 0.0f);
        int v18 = (v11 * N);
        int v20 = (v18 + v10);
        bool v21 = (v10 < N);
        float v22 = (v21 ? b[v20] : 0.0f);
        float v23 = (v17 * v22);
        float v24 = (v12 + v23);
        v12 = v24;
    }
    float v25 = v12;
    int v26 = (v5 * N);
    int v28 = (v26 + v10);
    bool v29 = (v5 < M);
    bool v30 = (v10 < N);
    bool v31 = (v29 && v30);
    if (v31) {
        c[v28] = v25;
    }
}

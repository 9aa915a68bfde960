extern "C" __global__
void matmul_2d_kernel(float* a, float* b, float* c, int M, int N) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.x;
    int v1 = (v0 * 4);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 8);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    float v12 = (v11 * 0.0f);
    int v13 = (v4 * 3);
    bool v16 = (v4 < M);
    float v17 = (v16 ? a[v13] : 0.0f);
    int v18 = (0 * N);
    int v19 = (v18 + v10);
    bool v21 = (v10 < N);
    float v22 = (v21 ? b[v19] : 0.0f);
    float v23 = (v17 * v22);
    float v24 = (v12 + v23);
    int v26 = (v13 + 1);
    float v29 = (v16 ? a[v26] : 0.0f);
    int v30 = (1 * N);
    int v31 = (v30 + v10);
    float v34 = (v21 ? b[v31] : 0.0f);
    float v35 = (v29 * v34);
    float v36 = (v24 + v35);
    int v38 = (v13 + 2);
    float v41 = (v16 ? a[v38] : 0.0f);
    int v42 = (2 * N);
    int v43 = (v42 + v10);
    float v46 = (v21 ? b[v43] : 0.0f);
    float v47 = (v41 * v46);
    float v48 = (v36 + v47);
    bool v52 = (v16 && v21);
    if (v52) {
        c[v11] = v48;
    }
}

extern "C" __global__
void naive_matmul_kernel(float* a, float* b, float* c, int n_cols) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 3);
    int v3 = (v1 + 0);
    float v4 = a[v3];
    int v5 = (0 * n_cols);
    int v6 = blockIdx.y;
    int v7 = (v6 * 4);
    int v8 = threadIdx.x;
    int v9 = (v7 + v8);
    int v10 = (v5 + v9);
    bool v12 = (v9 < n_cols);
    float v13 = (v12 ? b[v10] : 0.0f);
    float v14 = (v4 * v13);
    float v15 = (0.0f + v14);
    int v17 = (v1 + 1);
    float v18 = a[v17];
    int v19 = (1 * n_cols);
    int v20 = (v19 + v9);
    float v22 = (v12 ? b[v20] : 0.0f);
    float v23 = (v18 * v22);
    float v24 = (v15 + v23);
    int v26 = (v1 + 2);
    float v27 = a[v26];
    int v28 = (2 * n_cols);
    int v29 = (v28 + v9);
    float v31 = (v12 ? b[v29] : 0.0f);
    float v32 = (v27 * v31);
    float v33 = (v24 + v32);
    int v34 = (v0 * n_cols);
    int v35 = (v34 + v9);
    if (v12) {
        c[v35] = v33;
    }
}

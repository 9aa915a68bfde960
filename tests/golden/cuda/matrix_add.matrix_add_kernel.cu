extern "C" __global__
void matrix_add_kernel(float* x, float* y, float* out, int n_cols) {
    int v0 = blockIdx.x;
    int v1 = (v0 * n_cols);
    int v2 = blockIdx.y;
    int v3 = (v2 * 256);
    int v4 = threadIdx.x;
    int v5 = (v3 + v4);
    int v6 = (v1 + v5);
    bool v8 = (v5 < n_cols);
    float v9 = (v8 ? x[v6] : 0.0f);
    float v11 = (v8 ? y[v6] : 0.0f);
    float v12 = (v9 + v11);
    if (v8) {
        out[v6] = v12;
    }
}

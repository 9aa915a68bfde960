extern "C" __global__
void relu_kernel(float* x, float* out, int n) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? x[v3] : 0.0f);
    float v7 = ((isnan(v6) || v6 > 0.0f) ? v6 : 0.0f);
    if (v5) {
        out[v3] = v7;
    }
}

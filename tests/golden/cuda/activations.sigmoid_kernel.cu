extern "C" __global__
void sigmoid_kernel(float* x, float* out, int n) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? x[v3] : 0.0f);
    float v7 = (-v6);
    float v8 = expf(v7);
    float v9 = (1.0f + v8);
    float v10 = (1.0f / v9);
    if (v5) {
        out[v3] = v10;
    }
}

extern "C" __global__
void leaky_relu_kernel(float* x, float* out, int n, int slope) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? x[v3] : 0.0f);
    bool v7 = (v6 > 0.0f);
    float v8 = (v6 * slope);
    float v9 = (v7 ? v6 : v8);
    if (v5) {
        out[v3] = v9;
    }
}

extern "C" __global__
void copy_kernel(float* src, float* dst, int n) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? src[v3] : 0.0f);
    if (v5) {
        dst[v3] = v6;
    }
}

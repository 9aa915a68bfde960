extern "C" __global__
void runtime_sum_kernel(float* x, float* out, int K) {
    float v1 = 0.0f;
    for (int v0 = 0; v0 < K; v0 += 1) {
        float v3 = x[v0];
        float v4 = (v1 + v3);
        v1 = v4;
    }
    float v5 = v1;
    out[0] = v5;
}

extern "C" __global__
void factories_kernel(float* out) {
    float v0 = 0.0f;
    float v1 = 2.5f;
    float v2 = (v0 + v1);
    int v3 = threadIdx.x;
    out[v3] = v2;
}

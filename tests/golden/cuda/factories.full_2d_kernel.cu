extern "C" __global__
void full_2d_kernel(float* out, int value) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    float v0 = value;
    float v1 = 0.0f;
    float v2 = (v0 + v1);
    int v4 = tile_i;
    int v5 = (v4 * 8);
    int v8 = tile_j;
    int v9 = (v5 + v8);
    out[v9] = v2;
}

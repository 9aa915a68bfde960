extern "C" __global__
void tile_shape_kernel(float* out, int M, int N) {
    int tile_i = threadIdx.x / 32;
    int tile_j = threadIdx.x % 32;
    int v1 = tile_i;
    int v2 = (v1 * N);
    int v4 = tile_j;
    int v5 = (v2 + v4);
    bool v7 = (v1 < M);
    bool v8 = (v4 < N);
    bool v9 = (v7 && v8);
    if (v9) {
        out[v5] = v5;
    }
}

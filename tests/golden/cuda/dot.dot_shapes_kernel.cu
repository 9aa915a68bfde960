extern "C" __global__
void dot_shapes_kernel(float* out) {
    __shared__ float dot_a_2[64];
    __shared__ float dot_b_2[128];

    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    for (int mt_t = threadIdx.x; mt_t < 64; mt_t += 32) {
        int mt_row = mt_t / 16;
        int mt_col = mt_t % 16;
        float s0 = 0.0f;
        dot_a_2[mt_t] = s0;
    }
    for (int mt_t = threadIdx.x; mt_t < 128; mt_t += 32) {
        int mt_row = mt_t / 8;
        int mt_col = mt_t % 8;
        float s1 = 0.0f;
        dot_b_2[mt_t] = s1;
    }
    __syncthreads();
    float v2;
    v2 = 0.0f;
    #pragma unroll
    for (int mt_k = 0; mt_k < 16; ++mt_k) {
        float mt_a[1], mt_b[1];
        mt_a[0] = dot_a_2[tile_i * 16 + mt_k];
        mt_b[0] = dot_b_2[mt_k * 8 + tile_j];
        v2 += mt_a[0] * mt_b[0];
    }
    __syncthreads();
    int v4 = tile_i;
    int v5 = (v4 * 8);
    int v8 = tile_j;
    int v9 = (v5 + v8);
    out[v9] = v2;
}

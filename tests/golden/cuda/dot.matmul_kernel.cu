extern "C" __global__
void matmul_kernel(float* a, float* b, float* c, int M, int N, int K) {
    __shared__ float dot_a_33[128];
    __shared__ float dot_b_33[128];

    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    float v0[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v0[r0][0] = 0.0f;
    }
    int v1 = blockIdx.x;
    int v2 = blockIdx.y;
    float v4[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v4[r0][0] = v0[r0][0];
    }
    for (int v3 = 0; v3 < K; v3 += 16) {
        int v5 = (v1 * 8);
        int v24 = (v2 * 8);
        for (int mt_t = threadIdx.x; mt_t < 128; mt_t += 32) {
            int mt_row = mt_t / 16;
            int mt_col = mt_t % 16;
            int s12 = mt_col;
            int s13 = (v3 + s12);
            int s7 = mt_row;
            int s8 = (v5 + s7);
            int s9 = (s8 * K);
            int s10 = s9;
            int s14 = (s10 + s13);
            bool s15 = (s8 < M);
            bool s16 = (s13 < K);
            bool s17 = (s15 && s16);
            float s18 = (s17 ? a[s14] : 0.0f);
            dot_a_33[mt_t] = s18;
        }
        for (int mt_t = threadIdx.x; mt_t < 128; mt_t += 32) {
            int mt_row = mt_t / 8;
            int mt_col = mt_t % 8;
            int s26 = mt_col;
            int s27 = (v24 + s26);
            int s20 = mt_row;
            int s21 = (v3 + s20);
            int s22 = (s21 * N);
            int s23 = s22;
            int s28 = (s23 + s27);
            bool s29 = (s21 < K);
            bool s30 = (s27 < N);
            bool s31 = (s29 && s30);
            float s32 = (s31 ? b[s28] : 0.0f);
            dot_b_33[mt_t] = s32;
        }
        __syncthreads();
        float v33[2][1];
        #pragma unroll
        for (int r0 = 0; r0 < 2; ++r0) {
            v33[r0][0] = 0.0f;
        }
        #pragma unroll
        for (int mt_k = 0; mt_k < 16; ++mt_k) {
            float mt_a[2], mt_b[1];
            #pragma unroll
            for (int r0 = 0; r0 < 2; ++r0) {
                mt_a[r0] = dot_a_33[(tile_i + r0 * 4) * 16 + mt_k];
            }
            mt_b[0] = dot_b_33[mt_k * 8 + tile_j];
            #pragma unroll
            for (int r0 = 0; r0 < 2; ++r0) {
                v33[r0][0] += mt_a[r0] * mt_b[0];
            }
        }
        __syncthreads();
        float v34[2][1];
        #pragma unroll
        for (int r0 = 0; r0 < 2; ++r0) {
            v34[r0][0] = (v4[r0][0] + v33[r0][0]);
        }
        #pragma unroll
        for (int r0 = 0; r0 < 2; ++r0) {
            v4[r0][0] = v34[r0][0];
        }
    }
    int v36 = (v1 * 8);
    int v38[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v38[r0][0] = (tile_i + r0 * 4);
    }
    int v39[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v39[r0][0] = (v36 + v38[r0][0]);
    }
    int v40[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v40[r0][0] = (v39[r0][0] * N);
    }
    int v42 = (v2 * 8);
    int v44 = tile_j;
    int v45 = (v42 + v44);
    int v46[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v46[r0][0] = (v40[r0][0] + v45);
    }
    bool v47[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v47[r0][0] = (v39[r0][0] < M);
    }
    bool v48 = (v45 < N);
    bool v49[2][1];
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        v49[r0][0] = (v47[r0][0] && v48);
    }
    #pragma unroll
    for (int r0 = 0; r0 < 2; ++r0) {
        if (v49[r0][0]) {
            c[v46[r0][0]] = v4[r0][0];
        }
    }
}

# examples/matrix_add_2d.py matrix_add_2d_kernel BM=16 BN=32
int tile_i = threadIdx.x / 32;
int tile_j = threadIdx.x % 32;
int v3 = tile_i;
int v4 = (v1 + v3);
int v9 = tile_j;
int v10 = (v7 + v9);
int v11 = (v5 + v10);

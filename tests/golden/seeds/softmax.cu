# examples/softmax.py softmax_kernel BLOCK=8
__shared__ float reduce_smem_7[8];
__shared__ float reduce_smem_10[8];

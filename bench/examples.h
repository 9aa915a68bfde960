/* examples.h: the example kernels the compiler benchmarks measure (file
 * under examples/, kernel name), shared by compile_bench and nvrtc_bench. */
#ifndef MT_BENCH_EXAMPLES_H
#define MT_BENCH_EXAMPLES_H

static const struct {
    const char *file, *kernel;
} bench_examples[] = {
    {"add_kernel.py", "add_kernel"},
    {"copy_kernel.py", "copy_kernel"},
    {"activations.py", "relu_kernel"},
    {"activations.py", "leaky_relu_kernel"},
    {"activations.py", "sigmoid_kernel"},
    {"matrix_add.py", "matrix_add_kernel"},
    {"row_reductions.py", "row_sum_kernel"},
    {"row_reductions.py", "row_max_kernel"},
    {"row_reductions.py", "row_min_kernel"},
    {"softmax.py", "softmax_kernel"},
    {"long_row_sum.py", "long_row_sum_kernel"},
    {"naive_matmul.py", "naive_matmul_kernel"},
    {"matrix_add_2d.py", "matrix_add_2d_kernel"},
    {"tile_shape.py", "tile_shape_kernel"},
    {"matmul_2d.py", "matmul_2d_kernel"},
    {"matmul_2d_runtime.py", "matmul_2d_runtime_kernel"},
    {"runtime_sum.py", "runtime_sum_kernel"},
    {"factories.py", "factories_kernel"},
    {"factories.py", "full_2d_kernel"},
    {"dot.py", "dot_shapes_kernel"},
    {"dot.py", "matmul_kernel"},
};

#endif

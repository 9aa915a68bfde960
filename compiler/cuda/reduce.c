/* reduce.c: block-local reductions through shared memory (seed 003).
 *
 * Every thread writes its lane into a shared scratch array named after
 * the reduction's SSA value, then the active half of the threads combines
 * pairs while the stride halves; the result is element 0:
 *
 *     __shared__ float reduce_smem_7[8];
 *     reduce_smem_7[threadIdx.x] = v6;
 *     __syncthreads();
 *     for (int stride_7 = 4; stride_7 > 0; stride_7 >>= 1) {
 *         if (threadIdx.x < stride_7) {
 *             reduce_smem_7[threadIdx.x] += reduce_smem_7[threadIdx.x + stride_7];
 *         }
 *         __syncthreads();
 *     }
 *     float v7 = reduce_smem_7[0];
 *
 * Layout inference guarantees the reduced width equals the thread count
 * (and the verifier that it is a power of two). Inside a runtime loop one
 * more barrier keeps the next iteration from overwriting element 0 while
 * slower threads still read it. */
#include "emit.h"

void em_reduce(Em *e, const MtInst *in)
{
    const MtFunc *f = e->f;
    uint32_t id = f->vals[in->dst].num;
    int32_t w = f->vals[in->args[0]].ty->shape[0];
    const char *ty = cu_type(in->ty);
    const char *s = mt_sprintf(e->c, "reduce_smem_%u", id);
    mt_buf_printf(&e->shared, "    __shared__ %s %s[%d];\n", ty, s, w);
    e->shared_bytes += (uint64_t)w * mt_ty_info(mt_ty_elem(in->ty))->size;
    em_line(e, "%s[threadIdx.x] = %s;", s, em_ref(e, in->args[0], "0", "0"));
    em_line(e, "__syncthreads();");
    em_line(e, "for (int stride_%u = %d; stride_%u > 0; stride_%u >>= 1) {", id, w / 2, id, id);
    e->indent++;
    em_line(e, "if (threadIdx.x < stride_%u) {", id);
    e->indent++;
    const char *lhs = mt_sprintf(e->c, "%s[threadIdx.x]", s);
    const char *rhs = mt_sprintf(e->c, "%s[threadIdx.x + stride_%u]", s, id);
    bool flt = mt_ty_elem(in->ty) == &mt_ty_f32;
    if (in->op == OP_SUM)
        em_line(e, "%s += %s;", lhs, rhs);
    else
        em_line(e, "%s = %s(%s, %s);", lhs, in->op == OP_MAX ? (flt ? "fmaxf" : "max") : (flt ? "fminf" : "min"),
                lhs, rhs);
    e->indent--;
    em_line(e, "}");
    em_line(e, "__syncthreads();");
    e->indent--;
    em_line(e, "}");
    e->names[in->dst] = mt_sprintf(e->c, "v%u", id);
    em_line(e, "%s %s = %s[0];", ty, e->names[in->dst], s);
    if (e->loop_depth)
        em_line(e, "__syncthreads();");
}

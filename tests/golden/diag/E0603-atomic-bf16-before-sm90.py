# args: --emit cuda --arch sm_80 --signature *bf16,128
import triton
import triton.language as tl


# PTX has atom.add.noftz.bf16 from sm_90 on: an older target refuses
# exactly this pair (atomic_add on bf16)
@triton.jit
def kernel(acc, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(acc + offs % 4, 1.0)

/* check_schedule.c: where the kernel layer issues global loads
 * (compiler/kernel/schedule.c). A load moves up past the arithmetic
 * before it, to the last statement it depends on: layer norm's weights
 * are loaded right after the reduction's last barrier, not after the
 * square root; with no barrier (one warp a program) before the reduction
 * itself. It never moves past a store of the program, a barrier, or the
 * statements that compute its index. tests/exec/fast/memory.py's
 * norm_load_order_kernel runs the same shape in the simulator and on the GPU. */
#include "../test_util.h"

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def k(x_ptr, w_ptr, out_ptr, eps, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + row * BLOCK + cols)\n"
    "    var = tl.sum(x * x, axis=0) / BLOCK\n"
    "    r = 1 / tl.sqrt(var + eps)\n"
    "    w = tl.load(w_ptr + cols)\n"
    "    tl.store(out_ptr + row * BLOCK + cols, x * r * w)\n"
    "    y = tl.load(out_ptr + row * BLOCK + cols)\n"
    "    i = tl.argmax(x, axis=0)\n"
    "    g = tl.load(w_ptr + i)\n"
    "    tl.store(out_ptr + row * BLOCK + cols, y + g)\n";

static char text[1 << 18];

/* The kernel layer of k for BLOCK columns on num_warps warps. */
static const char *kernel_text(int block, int num_warps)
{
    char sig[64];
    snprintf(sig, sizeof sig, "*fp32:16,*fp32:16,*fp32:16,fp32,%d", block);
    return test_stage_text(src, "k", sig, num_warps, MT_STAGE_KERNEL, text, sizeof text);
}

/* Where word first occurs in t (it must). */
static size_t first(const char *t, const char *word)
{
    const char *p = strstr(t, word);
    ck_assert_msg(p != NULL, "no %s", word);
    return (size_t)(p - t);
}

/* Where word last occurs in t before position end (it must). */
static size_t last_before(const char *t, const char *word, size_t end)
{
    size_t at = end;
    for (const char *p = t; (p = strstr(p, word)) && (size_t)(p - t) < end; p++)
        at = (size_t)(p - t);
    ck_assert_msg(at < end, "no %s before %zu", word, end);
    return at;
}

START_TEST(loads_move_up_to_the_last_barrier)
{
    /* four warps: the sum is exchanged through shared memory behind a
     * barrier; the weights load right after it, before the square root */
    const char *t = kernel_text(1024, 4);
    size_t w = first(t, "load4 w_ptr[");
    size_t root = first(t, "sqrt(");
    ck_assert_uint_lt(w, root);
    ck_assert_uint_gt(w, last_before(t, "barrier", root));
    ck_assert_uint_gt(w, first(t, "load4 x_ptr["));
}
END_TEST

START_TEST(loads_move_past_shuffles)
{
    /* one warp a program: no barrier, so the weights load before the
     * reduction's shuffles, next to the row's loads */
    const char *t = kernel_text(256, 1);
    ck_assert_uint_lt(first(t, "load4 w_ptr["), first(t, "shfl_xor("));
}
END_TEST

START_TEST(loads_stay_after_stores)
{
    /* y reads what the program stored to out: it stays behind the store */
    const char *t = kernel_text(1024, 4);
    ck_assert_uint_gt(first(t, "load4 out_ptr["), first(t, "store4 out_ptr["));
}
END_TEST

START_TEST(loads_stay_after_their_index)
{
    /* the gathered weight's index is the argmax: its load follows the
     * argmax's last barrier and the selects after it */
    const char *t = kernel_text(1024, 4);
    size_t g = first(t, "load w_ptr[");
    const char *end = t + strlen(t);
    ck_assert_uint_gt(g, last_before(t, "barrier", (size_t)(end - t)));
    ck_assert_uint_gt(g, last_before(t, "shfl_xor(", (size_t)(end - t)));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("schedule");
    TCase *k = tcase_create("loads");
    tcase_add_test(k, loads_move_up_to_the_last_barrier);
    tcase_add_test(k, loads_move_past_shuffles);
    tcase_add_test(k, loads_stay_after_stores);
    tcase_add_test(k, loads_stay_after_their_index);
    suite_add_tcase(s, k);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* array.h: arrays made from a recipe instead of read from a file.
 *
 * A launch spec may describe an input as {"dtype": "float32", "shape":
 * [1000], "init": "uniform", "low": -1, "high": 1, "seed": 1} rather than
 * point at a .npy file. The recipe must give the same bytes on every machine
 * and every run, so that a result checked once (a checksum, a golden .npy)
 * stays checked: values come from PCG32 seeded through splitmix64, with the
 * exact steps written down in docs/launch-spec.md and pinned by the tests.
 */
#ifndef MT_RUNTIME_ARRAY_H
#define MT_RUNTIME_ARRAY_H

#include <stdint.h>

#include "npy.h"

typedef enum MtInit {
    MT_INIT_ZEROS,
    MT_INIT_ONES,
    MT_INIT_ARANGE,           /* element k (C order) holds k, cast to the dtype */
    MT_INIT_CONSTANT,         /* every element holds `a` */
    MT_INIT_UNIFORM,          /* floats: [a, b) reals; integers: [a, b) integers; bool: fair coin flips */
    MT_INIT_NORMAL,           /* floats only: mean a, standard deviation b */
} MtInit;

/* "zeros", "ones", "arange", "constant", "uniform", "normal". */
const char *mt_init_name(MtInit init);
/* The init called `name`, or -1. */
int mt_init_from_name(const char *name);

typedef struct MtArrayGen {
    MtDtype dtype;
    int ndim;
    int64_t shape[MT_ARRAY_MAX_DIMS];
    MtInit init;
    double a, b;              /* constant: value in a; uniform: low, high; normal: mean, std */
    uint64_t seed;            /* uniform and normal */
} MtArrayGen;

/* Check that a recipe can be carried out: a valid shape whose size fits,
 * an init the dtype supports, and parameters that make sense for both
 * (integer values within the dtype's range and integral, low < high, std >= 0, a bool
 * constant 0 or 1). The message names the parameter, without a prefix:
 * "low (2) must be below high (1)". */
MtStatus mt_array_gen_check(const MtArrayGen *g, char *err, size_t errlen);

/* Carry out a recipe (after mt_array_gen_check, which this repeats).
 * MT_ERR_USAGE for a recipe that check rejects, MT_ERR_NOMEM when the
 * array cannot be allocated; *out is NULL on failure. */
MtStatus mt_array_generate(const MtArrayGen *g, MtArray **out, char *err, size_t errlen);

/* PCG32 (O'Neill, pcg32_random_r: 64-bit LCG state, XSH-RR output), exposed
 * so the documented sequence can be tested and reproduced elsewhere. */
typedef struct MtPcg32 {
    uint64_t state;
    uint64_t inc;             /* always odd */
} MtPcg32;

/* Seed as pcg32_srandom_r(rng, s1, s2) with s1, s2 the first two outputs of
 * splitmix64 started at `seed`. */
void mt_pcg32_seed(MtPcg32 *rng, uint64_t seed);
uint32_t mt_pcg32_next(MtPcg32 *rng);

#endif

/* grid.h: integer expressions for launch grids and metric counts.
 *
 * Triton launches take a grid lambda, `lambda meta: (triton.cdiv(n,
 * meta['BLOCK']),)`. A launch spec writes the body of such a lambda as a
 * string, "cdiv(n, BLOCK)", evaluated over the launch's integer scalar
 * arguments and constexprs. The same language computes the optional
 * `bytes` and `flops` counts.
 *
 * Grammar (Python's precedence and meaning):
 *     expr    = term (("+" | "-") term)*
 *     term    = unary (("*" | "//" | "%") unary)*
 *     unary   = ("-" | "+") unary | primary
 *     primary = INT | NAME | NAME "(" expr "," expr ")" | "(" expr ")"
 *             | "meta" "[" STRING "]"
 * INT is decimal with optional underscores (1_000). The functions are
 * cdiv(a, b) = (a + b - 1) // b (triton.cdiv; "triton.cdiv" is accepted
 * too), max(a, b) and min(a, b). `meta['BLOCK']` reads BLOCK, so a Triton
 * lambda's body can be pasted as it is. // and % floor, as in Python
 * (-7 // 2 == -4, -7 % 2 == 1). Arithmetic is on int64_t and overflow is an
 * error, never a wrapped value. "/" is refused: it is float division.
 * A pasted lambda or tuple is refused with what to write instead:
 *     "lambda meta: (triton.cdiv(n, meta['BLOCK']),)" ->
 *     a grid entry is the body of Triton's grid lambda, not the lambda:
 *     write ["triton.cdiv(n, meta['BLOCK'])"]
 */
#ifndef MT_RUNTIME_GRID_H
#define MT_RUNTIME_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

/* What a name lookup answers. */
enum {
    MT_GRID_FOUND = 0,        /* *value holds the name's value */
    MT_GRID_UNKNOWN = 1,      /* no such name */
    MT_GRID_NOT_INT = 2,      /* the name exists but is not an integer (a float, an array) */
};

typedef int (*MtGridLookup)(void *ud, const char *name, int64_t *value);

/* Evaluate `expr`. Returns MT_OK with *out set, or MT_ERR_USAGE with a
 * message that says what went wrong and where (1-based byte column):
 *     unknown name 'BLOK' at column 9 in "cdiv(n, BLOK)"
 *     division by zero at column 3 in "n // 0"
 * `lookup` may be NULL when no names are defined. */
MtStatus mt_grid_eval(const char *expr, MtGridLookup lookup, void *ud, int64_t *out, char *err,
                      size_t errlen);

/* Check the syntax only (names and values are not looked at), so a spec can
 * be rejected when it is read rather than when it is launched. */
MtStatus mt_grid_check(const char *expr, char *err, size_t errlen);

#endif

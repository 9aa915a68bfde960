/* project.h: the project file, mytriton.json, as the language server and
 * the dashboard read it (docs/lsp.md):
 *
 *   {"constexprs": {"BLOCK": 128},
 *    "kernels": {"add_kernel": {"signature": "*fp32,*fp32,*fp32,i32,256",
 *                               "constexprs": {"BLOCK": 1024}}}}
 *
 * every key optional. Values are numbers, booleans, null or strings: a
 * string that is a Python literal by the compiler's rule (mt_literal_parse:
 * "1e-5", "'relu'", the dtype "tl.float16") is that literal, any other
 * ("leaky_relu") is that string. Editor settings' constexprs take values
 * the same way. */
#ifndef MYTRITON_PROJECT_H
#define MYTRITON_PROJECT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* The first structural problem of a parsed project file, or NULL; *where
 * names the key it was found under ("" at the top). */
const char *mt_project_problem(const cJSON *root, const char **where);

/* A constexpr value of the file (or of the settings) as a Python literal,
 * in buf or a constant: NULL when it is not a number, boolean, null or
 * string, or does not fit in cap bytes. */
const char *mt_project_value_literal(const cJSON *v, char *buf, size_t cap);

#endif

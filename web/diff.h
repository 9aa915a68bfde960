/* diff.h: line diffs of printed stages (diff.c). */
#ifndef MT_WEB_DIFF_H
#define MT_WEB_DIFF_H

#include <cjson/cJSON.h>

/* [{"op": "=" | "-" | "+", "text": LINE}, ...]: `before` turned into
 * `after`, removals before additions where lines were replaced. */
cJSON *mt_web_diff_lines(const char *before, const char *after);

#endif

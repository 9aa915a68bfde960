/* check_text.c: `--format text`, for people reading a terminal or a CI
 * log: every finding as the compiler prints it (location, severity,
 * message, rule code, the source line with a caret, notes), in file and
 * kernel order, then one summary line:
 *
 *   3 files, 12 kernels checked, 2 skipped: 1 error, 0 warnings
 *
 * A skipped kernel shows up as its I0901 info, which says what value it
 * lacks and how to give one. */
#include <stdlib.h>

#include "check_report.h"

void ck_format_text(CkReport *r, const CkOptions *o, FILE *out)
{
    size_t *idx;
    size_t n = ck_visible(r, false, &idx);
    for (size_t i = 0; i < n; i++)
        fputs(r->findings[idx[i]].rendered, out);
    free(idx);
    char *line = ck_summary_line(r);
    fprintf(out, "%s%s%s\n", o->color ? "\033[1m" : "", line, o->color ? "\033[0m" : "");
    free(line);
}

/* tool.h: running a helper program (the SASS disassembler) with a time
 * and output limit (tool.c). */
#ifndef MT_WEB_TOOL_H
#define MT_WEB_TOOL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct WebToolResult {
    bool ok;                  /* exited with status 0 within the limits */
    char *out;                /* stdout and stderr together, NUL-terminated (malloc'ed), or NULL */
    size_t len;
    char error[256];          /* why not ok */
} WebToolResult;

/* Run argv[0] (a path) with argv, no stdin, stdout and stderr captured up
 * to max_out bytes; killed after timeout_s. */
void mt_web_run_tool(char *const argv[], double timeout_s, size_t max_out, WebToolResult *r);

#endif

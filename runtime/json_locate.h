/* json_locate.h: where a field of a JSON document is, in its text.
 *
 * cJSON keeps no positions, but a diagnostic about a launch spec's field
 * ("args.x.shape[0]") should point at it, as the compiler's point into a
 * kernel. This walks the text itself (a small scanner, no allocation) to
 * the field: a path is keys separated by '.', and [N] for the N-th element
 * of a list. The range is the value when it is a number, a string, a bool
 * or null, and the member's key when the value is an object or a list (a
 * caret under a whole object would cover lines). The first member of a
 * repeated key wins. */
#ifndef MT_RUNTIME_JSON_LOCATE_H
#define MT_RUNTIME_JSON_LOCATE_H

#include <stdbool.h>
#include <stdint.h>

/* The byte range [*off, *end) of `path` in `text`; false when the text
 * has no such field (or is not valid JSON up to it). */
bool mt_json_locate(const char *text, const char *path, uint32_t *off, uint32_t *end);

#endif

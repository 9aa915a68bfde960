/* repro.c: placeholder (being written). */
#include "api.h"

void mt_web_api_run_repro(WebReq *r) { mt_web_reply_error(r, 501, "todo", NULL, "not yet"); }

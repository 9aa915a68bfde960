/* ceilings.c: placeholder (being written). */
#include "api.h"

void mt_web_api_ceilings(WebReq *r) { mt_web_reply_error(r, 501, "todo", NULL, "not yet"); }
void mt_web_api_ceilings_measure(WebReq *r) { mt_web_reply_error(r, 501, "todo", NULL, "not yet"); }

/* compile_limits.h: compile slots and the compile watchdog (compile_limits.c). */
#ifndef MT_WEB_COMPILE_LIMITS_H
#define MT_WEB_COMPILE_LIMITS_H

typedef struct WebLimits WebLimits;

/* `slots` compiles at once, each cancelled after timeout_s. */
WebLimits *mt_web_limits_new(int slots, double timeout_s);
void mt_web_limits_free(WebLimits *l);

#endif

/* cost.h: what a run moved and computed, and how fast (cost.c). */
#ifndef MT_WEB_COST_H
#define MT_WEB_COST_H

#include <cjson/cJSON.h>

#include "launch_spec.h"
#include "mytriton/mytriton.h"
#include "web_int.h"

/* A run's "cost" (docs/dashboard.md): the compiler's counts of one program
 * of k (mt_query_cost) for the spec's scalar values and the result's grid,
 * the run's programs, the totals (the spec's "bytes" and "flops", when it
 * gives them, instead of the compiler's: an explicit override), whether
 * the totals are exact, and the achieved GB/s and TFLOP/s over the median
 * profiled launch. `result` (the worker's, may be NULL) gives the grid,
 * the spec's evaluated counts and the profile. */
cJSON *mt_web_cost_json(MtCtx *c, MtCompiled *k, const MtLaunchSpec *ls, const cJSON *result);

/* The same for run `id` of the history (`run`: its full record): its
 * source compiled with its signature, its DATA/runs/ID/spec.json. When it
 * cannot be counted: {"unavailable": why}. */
cJSON *mt_web_run_cost(MtWebServer *s, int64_t id, const cJSON *run);

#endif

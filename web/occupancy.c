/* occupancy.c: the occupancy calculation, as NVIDIA's occupancy
 * calculator makes it for compute capability 7.0 and later.
 *
 * A block of T threads is ceil(T / 32) warps. Registers are allocated per
 * warp in units of 256 (registers per thread x 32, rounded up), inside
 * each of the SM's 4 sub-partitions: a sub-partition holds
 * floor(regs_per_sm / 4 / regs_per_warp) warps, the SM four times that, so
 * floor(that / warps per block) blocks. A block also needs its registers
 * within the per-block limit, which the hardware checks as if its warps
 * were rounded up to a multiple of 4. Shared memory: static bytes plus the
 * driver's reserved bytes per block, rounded up to 128 bytes (256 before
 * compute capability 8), out of the SM's largest carveout. Threads: the
 * SM's resident warps over warps per block. And at most blocks_per_sm. The
 * least of the four is the answer. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "occupancy.h"

enum { REG_UNIT = 256, SUB_PARTITIONS = 4 };

static int round_up(int v, int unit) { return (v + unit - 1) / unit * unit; }

bool mt_web_occupancy(const WebSmLimits *l, int threads, int registers, int shared_bytes, WebOccupancy *o)
{
    memset(o, 0, sizeof *o);
    if (l->warp_size <= 0 || l->threads_per_sm <= 0 || l->regs_per_sm <= 0 || l->blocks_per_sm <= 0 ||
        l->smem_per_sm <= 0 || threads <= 0 || registers < 0 || shared_bytes < 0)
        return false;
    int warps = (threads + l->warp_size - 1) / l->warp_size;
    o->max_warps_per_sm = l->threads_per_sm / l->warp_size;
    o->by_threads = o->max_warps_per_sm / warps;
    int regs_per_warp = round_up(registers * l->warp_size, REG_UNIT);
    if (regs_per_warp * round_up(warps, SUB_PARTITIONS) > l->regs_per_block) {
        o->limit = "registers";
        return false;
    }
    o->by_registers =
        regs_per_warp ? l->regs_per_sm / SUB_PARTITIONS / regs_per_warp * SUB_PARTITIONS / warps : INT_MAX;
    int smem = round_up(shared_bytes + l->smem_reserved_per_block, l->cc_major >= 8 ? 128 : 256);
    if (smem > l->smem_per_sm) {
        o->limit = "shared memory";
        return false;
    }
    o->by_shared = smem ? l->smem_per_sm / smem : INT_MAX;
    o->by_blocks = l->blocks_per_sm;
    struct {
        int n;
        const char *name;
    } by[] = {{o->by_threads, "threads"}, {o->by_registers, "registers"}, {o->by_shared, "shared memory"},
              {o->by_blocks, "blocks per SM"}};
    o->blocks_per_sm = INT_MAX;
    for (size_t i = 0; i < sizeof by / sizeof *by; i++)
        if (by[i].n < o->blocks_per_sm) {
            o->blocks_per_sm = by[i].n;
            o->limit = by[i].name;
        }
    o->warps_per_sm = o->blocks_per_sm * warps;
    o->fraction = (double)o->warps_per_sm / o->max_warps_per_sm;
    return o->blocks_per_sm > 0;
}

static bool int_at(const cJSON *o, const char *key, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        return false;
    *out = v->valueint;
    return true;
}

bool mt_web_sm_limits(const cJSON *d, WebSmLimits *l)
{
    memset(l, 0, sizeof *l);
    const char *cc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "cc"));
    l->cc_major = cc ? atoi(cc) : 0;
    return l->cc_major >= 7 && int_at(d, "warp_size", &l->warp_size) && int_at(d, "regs_per_sm", &l->regs_per_sm) &&
           int_at(d, "regs_per_block", &l->regs_per_block) && int_at(d, "threads_per_sm", &l->threads_per_sm) &&
           int_at(d, "blocks_per_sm", &l->blocks_per_sm) && int_at(d, "smem_per_sm", &l->smem_per_sm) &&
           int_at(d, "smem_reserved_per_block", &l->smem_reserved_per_block);
}

cJSON *mt_web_occupancy_json(const WebOccupancy *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "blocks_per_sm", o->blocks_per_sm);
    cJSON_AddNumberToObject(j, "warps_per_sm", o->warps_per_sm);
    cJSON_AddNumberToObject(j, "max_warps_per_sm", o->max_warps_per_sm);
    cJSON_AddNumberToObject(j, "fraction", o->fraction);
    cJSON_AddStringToObject(j, "limit", o->limit ? o->limit : "");
    cJSON *by = cJSON_AddObjectToObject(j, "by");
    cJSON_AddNumberToObject(by, "threads", o->by_threads);
    cJSON_AddNumberToObject(by, "registers", o->by_registers == INT_MAX ? -1 : o->by_registers);
    cJSON_AddNumberToObject(by, "shared_memory", o->by_shared == INT_MAX ? -1 : o->by_shared);
    cJSON_AddNumberToObject(by, "blocks", o->by_blocks);
    return j;
}

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
 * least of the four is the answer.
 *
 * Where the figure comes from, in the order the dashboard prefers: the
 * driver (cuOccupancyMaxActiveBlocksPerMultiprocessor for the loaded
 * kernel, in a GPU run's result); this calculation with the device's
 * limits (the probe's cuDeviceGetAttribute values) and the loaded
 * kernel's registers and shared memory, for a GPU run whose driver said
 * nothing; and, with no GPU at all, this calculation with the
 * architectural limits of the compile's target (the table below, NVIDIA's
 * per-compute-capability figures) and the registers and shared memory
 * read from the cubin NVRTC made (runtime/cubin_info.c, what `ptxas -v`
 * reports). Each answer says which ("source"). */
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

/* Per SM, by compute capability (the CUDA C++ Programming Guide's table of
 * technical specifications): resident threads and blocks, shared memory
 * (the largest carveout) and the shared memory reserved per block; 64 Ki
 * registers per SM and per block, warps of 32, everywhere. */
static const struct {
    int sm, threads, blocks, smem, reserved;
} arch_limits[] = {
    {70, 2048, 32, 98304, 0},     {75, 1024, 16, 65536, 0},     {80, 2048, 32, 167936, 1024},
    {86, 1536, 16, 102400, 1024}, {87, 1536, 16, 167936, 1024}, {89, 1536, 24, 102400, 1024},
    {90, 2048, 32, 233472, 1024}, {100, 2048, 32, 233472, 1024}, {120, 1536, 32, 102400, 1024},
};

bool mt_web_sm_limits_for_arch(int sm, WebSmLimits *l)
{
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < sizeof arch_limits / sizeof *arch_limits; i++)
        if (arch_limits[i].sm == sm) {
            *l = (WebSmLimits){.cc_major = sm / 10, .warp_size = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
                               .threads_per_sm = arch_limits[i].threads, .blocks_per_sm = arch_limits[i].blocks,
                               .smem_per_sm = arch_limits[i].smem, .smem_reserved_per_block = arch_limits[i].reserved};
            return true;
        }
    return false;
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

cJSON *mt_web_occupancy_json(const WebOccupancy *o, const char *source)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "source", source);
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

cJSON *mt_web_run_occupancy(const WebSmLimits *l, int threads, int registers, int shared_bytes, int driver_blocks)
{
    WebOccupancy o;
    bool calculated = l && mt_web_occupancy(l, threads, registers, shared_bytes, &o);
    cJSON *j;
    if (driver_blocks <= 0) {
        if (calculated)
            return mt_web_occupancy_json(&o, "calculated");
        j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "unavailable", !l ? "no GPU of that name on this server to read its limits from"
                                                 : o.limit ? "the block needs more than the device allows"
                                                           : "the device's limits are incomplete");
        return j;
    }
    int warps = (threads + 31) / 32;
    if (calculated) {
        j = mt_web_occupancy_json(&o, "driver");
        /* the driver's count, the calculation's breakdown; a limit only where the two agree */
        if (o.blocks_per_sm != driver_blocks) {
            cJSON_DeleteItemFromObject(j, "limit");
            cJSON_AddNumberToObject(j, "calculated_blocks_per_sm", o.blocks_per_sm);
        }
        cJSON_ReplaceItemInObject(j, "blocks_per_sm", cJSON_CreateNumber(driver_blocks));
        cJSON_ReplaceItemInObject(j, "warps_per_sm", cJSON_CreateNumber(driver_blocks * warps));
        cJSON_ReplaceItemInObject(j, "fraction",
                                  cJSON_CreateNumber((double)driver_blocks * warps / o.max_warps_per_sm));
        return j;
    }
    j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "source", "driver");
    cJSON_AddNumberToObject(j, "blocks_per_sm", driver_blocks);
    cJSON_AddNumberToObject(j, "warps_per_sm", driver_blocks * warps);
    return j;
}

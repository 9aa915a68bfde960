/* occupancy.h: blocks per SM from a kernel's resources (occupancy.c). */
#ifndef MT_WEB_OCCUPANCY_H
#define MT_WEB_OCCUPANCY_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* A device's limits per SM, as the GPU probe reads them (cuDeviceGetAttribute). */
typedef struct WebSmLimits {
    int cc_major;
    int warp_size;
    int regs_per_sm, regs_per_block;
    int threads_per_sm;
    int blocks_per_sm;
    int smem_per_sm;              /* bytes, the largest carveout */
    int smem_reserved_per_block;  /* bytes the driver keeps per block */
} WebSmLimits;

/* What one kernel's blocks get on an SM: the most resident blocks under
 * each limit, the least of them, and which limit that is. */
typedef struct WebOccupancy {
    int by_threads, by_registers, by_shared, by_blocks;
    int blocks_per_sm;
    int warps_per_sm, max_warps_per_sm;
    double fraction;              /* warps_per_sm / max_warps_per_sm */
    const char *limit;            /* "threads", "registers", "shared memory", "blocks per SM" */
} WebOccupancy;

/* For blocks of `threads` threads using `registers` per thread and
 * `shared_bytes` of static shared memory per block. false when the limits
 * are missing or the block cannot run at all (too many registers or too
 * much shared memory for one block: o->limit says which). */
bool mt_web_occupancy(const WebSmLimits *l, int threads, int registers, int shared_bytes, WebOccupancy *o);

/* Limits from one device entry of the GPU probe ({"cc": "9.0", "regs_per_sm": ...}); false when it
 * lacks any. */
bool mt_web_sm_limits(const cJSON *device, WebSmLimits *l);
/* The architectural limits of sm_<sm> (90: H100/H200), for a compile with
 * no GPU to ask; false for an architecture the table lacks. */
bool mt_web_sm_limits_for_arch(int sm, WebSmLimits *l);
/* {"source", "blocks_per_sm", "warps_per_sm", "max_warps_per_sm", "fraction", "limit", "by": {...}} */
cJSON *mt_web_occupancy_json(const WebOccupancy *o, const char *source);
/* A GPU run's occupancy: the driver's resident blocks (driver_blocks > 0,
 * "source": "driver"), with the calculation's breakdown by resource where
 * the device's limits l are known (and "calculated_blocks_per_sm" where
 * it disagrees); else the calculation ("source": "calculated"); else
 * {"unavailable": why}. l may be NULL (no such device here). */
cJSON *mt_web_run_occupancy(const WebSmLimits *l, int threads, int registers, int shared_bytes, int driver_blocks);

#endif

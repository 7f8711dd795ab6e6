/*
 * plan.h — which kernel serves a canonical problem, and how. Pure C, no CUDA calls.
 */
#ifndef TG_PLAN_H
#define TG_PLAN_H

#include <stddef.h>
#include "kernel.h"
#include "tune_cache.h"

/* Ladder rungs 1..this are teaching kernels: never tuned, never taken from the cache. */
#define TG_PLAN_TEACHING_RUNGS 12

/* A kernel and what must happen before it runs. */
typedef struct tg_plan {
  const tg_kernel *kernel;
  int repack_a, repack_b;    /* copy the operand into the workspace first */
  int tf32x3;                /* 3xTF32 request on a tf32 row: both operands are split into the
                                workspace first, k-major and 3·k deep (tf32x3.h) */
  tg_order a_order, b_order; /* the operands' orders as the kernel sees them */
  int splits;                /* split-K factor (1 = none) */
  int tuned;                 /* 1 when the tuning cache named the kernel */
} tg_plan;

/* TG_OK when row k can serve p, directly or after repacking A and/or B (rows with `repack`);
 * fills *plan. Otherwise the status and reason of the direct attempt (none when why_len is 0). */
tg_status tg_plan_for_kernel(const tg_kernel *k, const tg_problem *p, tg_plan *plan, char *why,
                             size_t why_len);

/* 1 when tg_tune measures row k and the cache may name it: neither the reference kernel nor a
 * teaching rung (1..TG_PLAN_TEACHING_RUNGS). */
int tg_plan_tunable(const tg_kernel *k);

/* Chooses how to run p, in this order:
 *   1. forced (not NULL and not "auto"): that kernel, which must serve p;
 *   2. cache (may be NULL): the kernel tg_tune measured fastest for p's device and class, at
 *      p's exact shape or the nearest shape bucket (tg_cache_lookup), if it can serve p;
 *   3. the heuristic: among auto-pickable rows that can serve p, the lowest tg_plan_cost
 *      (ties: the higher rank, then registry order).
 * Returns TG_OK and *plan, or a status and the reason in why. */
tg_status tg_plan_choose(const tg_problem *p, const char *forced, const tg_tune_cache *cache,
                         tg_plan *plan, char *why, size_t why_len);

/* Lines of a repacked operand start on this many bytes (the workspace's parts on more). */
#define TG_REPACK_LINE_ALIGN 16
/* Where tg_plan_apply places a repacked operand until the launch knows its workspace address:
 * aligned as the workspace's parts are, so a row's check sees the alignment the launch has. */
#define TG_PLAN_REPACK_ADDRESS ((uintptr_t)4096)

/* The storage of a repacked operand, rows × cols in `order`: lines padded to
 * TG_REPACK_LINE_ALIGN bytes, one matrix when batch_stride is 0 (shared by every batch). */
typedef struct tg_repack_geometry {
  int64_t ld, batch_stride, batches;
  size_t bytes;
} tg_repack_geometry;
tg_repack_geometry tg_plan_repack_geometry(int64_t rows, int64_t cols, tg_order order,
                                           int64_t batch_stride, int64_t batch, size_t elem_bytes);

/* The problem as the kernel of `plan` sees it: each repacked operand in its new order, leading
 * dimension and batch stride, at TG_PLAN_REPACK_ADDRESS until the launch puts it in the
 * workspace; a 3xTF32 split makes it a tf32 problem of depth 3·k. A row's check judges this
 * problem, so it sees what the launch will run. */
void tg_plan_apply(const tg_plan *plan, tg_problem *p);

/* 1 when the plan writes operand A (B) into the workspace before the kernel runs. */
static inline int tg_plan_copies_a(const tg_plan *plan) { return plan->repack_a || plan->tf32x3; }
static inline int tg_plan_copies_b(const tg_plan *plan) { return plan->repack_b || plan->tf32x3; }

/* Estimated time of a plan, in arbitrary units comparable between plans of any family
 * (plan_cost.c: waves of CTAs × tile work ÷ the row's efficiency ÷ its family's measured speed
 * on p's architecture, plus split-K and repacking traffic). */
double tg_plan_cost(const tg_plan *plan, const tg_problem *p);

/* The measured speed of a family on an architecture relative to the fastest family there
 * (1.0 when no measurement says otherwise). */
double tg_plan_family_speed(const char *family, int sm);
/* What reading p's C adds to row k's per-tile cost, in k units: c_other_overhead_k where C or D
 * has another type than A's and the row declares it, else c_overhead_k (plan_cost.c). */
int tg_plan_c_overhead_k(const tg_kernel *k, const tg_problem *p);

#endif /* TG_PLAN_H */

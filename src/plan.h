/*
 * plan.h — which kernel serves a canonical problem, and how. Pure C, no CUDA calls.
 */
#ifndef TG_PLAN_H
#define TG_PLAN_H

#include <stddef.h>
#include "kernel.h"

/* A kernel and what must happen before it runs. */
typedef struct tg_plan {
  const tg_kernel *kernel;
  int repack_a, repack_b;      /* copy the operand into the workspace first */
  tg_order a_order, b_order;   /* the operands' orders as the kernel sees them */
  int splits;                  /* split-K factor (1 = none) */
} tg_plan;

/* TG_OK when row k can serve p, directly or after repacking A and/or B (rows with `repack`);
 * fills *plan. Otherwise the status and reason of the direct attempt. */
tg_status tg_plan_for_kernel(const tg_kernel *k, const tg_problem *p, tg_plan *plan, char *why,
                             size_t why_len);

/* Chooses how to run p. forced (NULL or "auto" = planner's choice) names a kernel that must
 * serve p. Automatic choice: the highest-ranked rows that can serve p, and among them the one
 * with the lowest estimated time (waves of CTAs × tile work / measured efficiency, plus the
 * cost of repacking). Returns TG_OK and *plan, or a status and the reason in why. */
tg_status tg_plan_choose(const tg_problem *p, const char *forced, tg_plan *plan, char *why,
                         size_t why_len);

/* The problem as the kernel of `plan` sees it after repacking: operands K-major and 16-byte
 * aligned where repacked (pointers and strides are filled in at launch). */
void tg_plan_apply(const tg_plan *plan, tg_problem *p);

/* Estimated time of a plan, in arbitrary units comparable between plans (planner, tests). */
double tg_plan_cost(const tg_plan *plan, const tg_problem *p);

#endif /* TG_PLAN_H */

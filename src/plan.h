/*
 * plan.h — which kernel serves a canonical problem. Pure C, no CUDA calls.
 */
#ifndef TG_PLAN_H
#define TG_PLAN_H

#include <stddef.h>
#include "kernel.h"

/* Chooses a kernel for p. forced (NULL or "auto" = planner's choice) names a kernel that must
 * serve p as it is. Returns TG_OK and *chosen, or a status and the reason in why. */
tg_status tg_plan(const tg_problem *p, const char *forced, const tg_kernel **chosen, char *why,
                  size_t why_len);

#endif /* TG_PLAN_H */

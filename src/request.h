/*
 * request.h — the first steps of every entry point that takes a tg_gemm and runs or plans it:
 * validation (and whether there is anything to compute), then the kernel choice, through the
 * handle's memory of its last plans.
 */
#ifndef TG_REQUEST_H
#define TG_REQUEST_H

#include "handle.h"
#include "plan.h"
#include "validate.h"

/* Validates *g (h may not be NULL; its last kernel is cleared) and fills *L; *empty is set when
 * D has no elements (m, n or batch is 0) and there is nothing to compute. */
tg_status tg_request_begin(tg_handle *h, const char *fn, const tg_gemm *g, tg_layout *L,
                           int *empty);

/* The plan for p, built from *g by tg_problem_build; plan->kernel is NULL when the product
 * vanishes (k == 0 or alpha == 0) and the epilogue runs alone. A plan the handle remembers for
 * p (plan_memo.h) is taken without planning. */
tg_status tg_request_choose(tg_handle *h, const char *fn, const tg_gemm *g, const tg_problem *p,
                            tg_plan *plan);

#endif /* TG_REQUEST_H */

/* request.c — see request.h. */
#include "request.h"

#include <string.h>

tg_status tg_request_begin(tg_handle *h, const char *fn, const tg_gemm *g, tg_layout *L,
                           int *empty) {
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  h->last_kernel = "";
  tg_status s = tg_validate_gemm(h, fn, g, L);
  if (s != TG_OK) return s;
  *empty = g->m == 0 || g->n == 0 || g->batch == 0;
  return TG_OK;
}

tg_status tg_request_choose(tg_handle *h, const char *fn, const tg_gemm *g, const tg_problem *p,
                            tg_plan *plan) {
  char why[256];
  memset(plan, 0, sizeof *plan);
  if (p->k == 0) return TG_OK;
  if (tg_plan_memo_find(&h->memo, p, g->kernel, h->cache.generation, plan)) return TG_OK;
  tg_status s = tg_plan_choose(p, g->kernel, &h->cache, plan, why, sizeof why);
  if (s != TG_OK) return tg_fail(h, s, "%s: %s", fn, why);
  tg_plan_memo_store(&h->memo, p, g->kernel, h->cache.generation, plan);
  return TG_OK;
}

/*
 * plan.c — picks the kernel for a canonical problem: a forced kernel must serve it as it is;
 * otherwise the highest-ranked auto-pickable row that can serve it wins. `ref` serves every
 * valid problem, so the automatic choice never fails on a supported device.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "registry.h"

tg_status tg_plan(const tg_problem *p, const char *forced, const tg_kernel **chosen, char *why,
                  size_t why_len) {
  *chosen = NULL;
  if (forced && strcmp(forced, "auto") != 0) {
    const tg_kernel *k = tg_registry_find(forced);
    if (!k) {
      snprintf(why, why_len, "no kernel is named '%s'", forced);
      return TG_ERR_INVALID_VALUE;
    }
    tg_status s = tg_kernel_can_serve(k, p, why, why_len);
    if (s == TG_OK) *chosen = k;
    return s;
  }
  char reason[256];
  for (int i = 0, n = tg_registry_count(); i < n; ++i) {
    const tg_kernel *k = tg_registry_at(i);
    if (!k->auto_pick) continue;
    if (*chosen && k->rank <= (*chosen)->rank) continue;
    if (tg_kernel_can_serve(k, p, reason, sizeof reason) == TG_OK) *chosen = k;
  }
  if (*chosen) return TG_OK;
  snprintf(why, why_len, "no kernel serves this request on sm_%d", p->sm);
  return TG_ERR_NOT_SUPPORTED;
}

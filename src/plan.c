/*
 * plan.c — picks the kernel for a canonical problem.
 *
 * A forced kernel must serve the problem as it is or after repacking its operands. Otherwise
 * the highest-ranked family whose rows can serve it wins (sm90 over sm80 over ref), and among
 * that family's rows the lowest estimated time: CTAs come in waves of sm_count × occupancy;
 * each wave costs a tile's multiply-adds over the row's measured efficiency; split-K rows
 * divide k among more CTAs; repacking costs a read and a write of the operand at memory speed.
 * `ref` serves every valid problem, so the automatic choice never fails on a supported device.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "registry.h"

/* Cost model constants: multiply-adds per SM per unit time at 100% efficiency, against bytes
 * moved per SM per unit time when repacking (H100: ~640 TFLOP/s mma.sync, ~3 TB/s DRAM,
 * i.e. about 107 multiply-adds per byte). */
#define TG_MACS_PER_BYTE 107.0
#define TG_PERCENT 100.0

static tg_order k_major_a(void) { return TG_ROW_MAJOR; }
static tg_order k_major_b(void) { return TG_COL_MAJOR; }

void tg_plan_apply(const tg_plan *plan, tg_problem *p) {
  if (plan->repack_a) {
    p->a_order = plan->a_order;
    p->align_a = 16;
  }
  if (plan->repack_b) {
    p->b_order = plan->b_order;
    p->align_b = 16;
  }
}

tg_status tg_plan_for_kernel(const tg_kernel *k, const tg_problem *p, tg_plan *plan, char *why,
                             size_t why_len) {
  memset(plan, 0, sizeof *plan);
  plan->kernel = k;
  plan->a_order = p->a_order;
  plan->b_order = p->b_order;
  tg_status s = tg_kernel_can_serve(k, p, why, why_len);
  if (s != TG_OK && k->repack) {
    /* Repack what does not fit: into the K-major order when the row takes it. */
    tg_plan r = *plan;
    tg_problem q = *p;
    if (!(k->a_orders & TG_MASK(p->a_order)) || p->align_a < k->align_ab) {
      r.repack_a = 1;
      r.a_order = (k->a_orders & TG_MASK(k_major_a())) ? k_major_a() : p->a_order;
    }
    if (!(k->b_orders & TG_MASK(p->b_order)) || p->align_b < k->align_ab) {
      r.repack_b = 1;
      r.b_order = (k->b_orders & TG_MASK(k_major_b())) ? k_major_b() : p->b_order;
    }
    tg_plan_apply(&r, &q);
    char why2[256];
    if ((r.repack_a || r.repack_b) && tg_kernel_can_serve(k, &q, why2, sizeof why2) == TG_OK) {
      *plan = r;
      s = TG_OK;
    }
  }
  if (s == TG_OK) {
    tg_problem q = *p;
    tg_plan_apply(plan, &q);
    plan->splits = k->splits ? k->splits(&q) : 1;
  }
  return s;
}

double tg_plan_cost(const tg_plan *plan, const tg_problem *p) {
  const tg_kernel *k = plan->kernel;
  const double tm = k->tile_m ? k->tile_m : 64, tn = k->tile_n ? k->tile_n : 64;
  const double occupancy = k->occupancy ? k->occupancy : 1;
  const double efficiency = (k->efficiency ? k->efficiency : TG_PERCENT) / TG_PERCENT;
  const double splits = plan->splits > 0 ? plan->splits : 1;
  const double tiles = (double)((p->m + (int64_t)tm - 1) / (int64_t)tm) *
                       (double)((p->n + (int64_t)tn - 1) / (int64_t)tn);
  const double ctas = tiles * (double)p->batch * splits;
  const double slots = (double)(p->sm_count > 0 ? p->sm_count : 1) * occupancy;
  double waves = (double)(int64_t)((ctas + slots - 1) / slots);
  if (waves < 1) waves = 1;
  double cost = waves * tm * tn * ((double)p->k / splits) * occupancy / efficiency;
  /* Partial sums written and read back once per split, spread over all SMs. */
  if (splits > 1) cost += 2.0 * 4.0 * splits * (double)(p->m * p->n * p->batch) * TG_MACS_PER_BYTE / slots;
  if (plan->repack_a)
    cost += 2.0 * (double)(p->m * p->k * p->batch) * 2 * TG_MACS_PER_BYTE / slots;
  if (plan->repack_b)
    cost += 2.0 * (double)(p->k * p->n * p->batch) * 2 * TG_MACS_PER_BYTE / slots;
  return cost;
}

tg_status tg_plan_choose(const tg_problem *p, const char *forced, tg_plan *plan, char *why,
                         size_t why_len) {
  memset(plan, 0, sizeof *plan);
  if (forced && strcmp(forced, "auto") != 0) {
    const tg_kernel *k = tg_registry_find(forced);
    if (!k) {
      snprintf(why, why_len, "no kernel is named '%s'", forced);
      return TG_ERR_INVALID_VALUE;
    }
    return tg_plan_for_kernel(k, p, plan, why, why_len);
  }
  char reason[256];
  double best_cost = 0.0;
  for (int i = 0, n = tg_registry_count(); i < n; ++i) {
    const tg_kernel *k = tg_registry_at(i);
    tg_plan candidate;
    if (!k->auto_pick) continue;
    if (plan->kernel && k->rank < plan->kernel->rank) continue;
    if (tg_plan_for_kernel(k, p, &candidate, reason, sizeof reason) != TG_OK) continue;
    double cost = tg_plan_cost(&candidate, p);
    if (!plan->kernel || k->rank > plan->kernel->rank || cost < best_cost) {
      *plan = candidate;
      best_cost = cost;
    }
  }
  if (plan->kernel) return TG_OK;
  snprintf(why, why_len, "no kernel serves this request on sm_%d", p->sm);
  return TG_ERR_NOT_SUPPORTED;
}

/*
 * plan.c — picks the kernel for a canonical problem.
 *
 * A forced kernel must serve the problem as it is or after repacking its operands (a 3xTF32
 * request runs on a tf32 row after splitting both operands into the workspace). Otherwise
 * the tuning cache is asked first (the kernel tg_tune measured fastest for this device, class
 * and shape, or the nearest shape bucket), and the heuristic decides when it has nothing:
 * the auto-pickable row with the lowest estimated time (plan_cost.c), the higher rank breaking
 * ties. `ref` serves every valid problem, so the automatic choice never fails on a supported
 * device.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "tf32x3.h"

static tg_order k_major_a(void) { return TG_ROW_MAJOR; }
static tg_order k_major_b(void) { return TG_COL_MAJOR; }

tg_repack_geometry tg_plan_repack_geometry(int64_t rows, int64_t cols, tg_order order,
                                           int64_t batch_stride, int64_t batch, size_t elem_bytes) {
  tg_repack_geometry r;
  const int64_t per_line = (int64_t)(TG_REPACK_LINE_ALIGN / elem_bytes);
  const int64_t inner = order == TG_ROW_MAJOR ? cols : rows,
                outer = order == TG_ROW_MAJOR ? rows : cols;
  r.ld = (inner + per_line - 1) / per_line * per_line;
  r.batches = batch_stride == 0 ? 1 : batch;
  r.batch_stride = batch_stride == 0 ? 0 : r.ld * outer;
  r.bytes = (size_t)(r.ld * outer * r.batches) * elem_bytes;
  return r;
}

void tg_plan_apply(const tg_plan *plan, tg_problem *p) {
  if (plan->tf32x3) {
    p->input = TG_IN_TF32;
    p->k *= TG_TF32X3_PRODUCTS;
  }
  if (tg_plan_copies_a(plan)) {
    const tg_repack_geometry r = tg_plan_repack_geometry(
        p->m, p->k, plan->a_order, p->batch_stride_a, p->batch, tg_dtype_size(p->a_type));
    p->a = (const void *)TG_PLAN_REPACK_ADDRESS;
    p->a_order = plan->a_order;
    p->lda = r.ld;
    p->batch_stride_a = r.batch_stride;
    p->align_a = TG_REPACK_LINE_ALIGN;
  }
  if (tg_plan_copies_b(plan)) {
    const tg_repack_geometry r = tg_plan_repack_geometry(
        p->k, p->n, plan->b_order, p->batch_stride_b, p->batch, tg_dtype_size(p->b_type));
    p->b = (const void *)TG_PLAN_REPACK_ADDRESS;
    p->b_order = plan->b_order;
    p->ldb = r.ld;
    p->batch_stride_b = r.batch_stride;
    p->align_b = TG_REPACK_LINE_ALIGN;
  }
}

/* A 3xTF32 problem on a row that takes tf32 but not 3xTF32 itself: the split plan, both
 * operands k-major (tf32x3.h). */
static int splits_tf32x3(const tg_kernel *k, const tg_problem *p) {
  return p->input == TG_IN_TF32X3 && !(k->inputs & TG_MASK(TG_IN_TF32X3)) &&
         (k->inputs & TG_MASK(TG_IN_TF32));
}

tg_status tg_plan_for_kernel(const tg_kernel *k, const tg_problem *p, tg_plan *plan, char *why,
                             size_t why_len) {
  memset(plan, 0, sizeof *plan);
  plan->kernel = k;
  plan->a_order = p->a_order;
  plan->b_order = p->b_order;
  if (splits_tf32x3(k, p)) {
    plan->tf32x3 = 1;
    plan->a_order = k_major_a();
    plan->b_order = k_major_b();
    tg_problem q = *p;
    tg_plan_apply(plan, &q);
    const tg_status s = tg_kernel_can_serve(k, &q, why, why_len);
    plan->splits = s == TG_OK && k->splits ? k->splits(&q) : 1;
    return s;
  }
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
    if ((r.repack_a || r.repack_b) && tg_kernel_can_serve(k, &q, NULL, 0) == TG_OK) {
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

int tg_plan_tunable(const tg_kernel *k) {
  return strcmp(k->family, "ref") != 0 && !(k->rung >= 1 && k->rung <= TG_PLAN_TEACHING_RUNGS);
}

/* tg_cache_lookup's filter: the cached kernel exists, may be cached, and serves p. */
static int cache_accept(const tg_cache_entry *e, const tg_problem *p, void *ctx) {
  const tg_kernel *k = tg_registry_find(e->kernel);
  tg_plan plan;
  (void)ctx;
  return k && tg_plan_tunable(k) && tg_plan_for_kernel(k, p, &plan, NULL, 0) == TG_OK;
}

tg_status tg_plan_choose(const tg_problem *p, const char *forced, const tg_tune_cache *cache,
                         tg_plan *plan, char *why, size_t why_len) {
  memset(plan, 0, sizeof *plan);
  if (forced && strcmp(forced, "auto") != 0) {
    const tg_kernel *k = tg_registry_find(forced);
    if (!k) {
      snprintf(why, why_len, "no kernel is named '%s'", forced);
      return TG_ERR_INVALID_VALUE;
    }
    return tg_plan_for_kernel(k, p, plan, why, why_len);
  }
  const tg_cache_entry *hit = tg_cache_lookup(cache, p, cache_accept, NULL);
  if (hit) {
    tg_plan_for_kernel(tg_registry_find(hit->kernel), p, plan, why, why_len);
    plan->tuned = 1;
    return TG_OK;
  }
  double best_cost = 0.0;
  for (int i = 0, n = tg_registry_count(); i < n; ++i) {
    const tg_kernel *k = tg_registry_at(i);
    tg_plan candidate;
    if (!k->auto_pick) continue;
    if (tg_plan_for_kernel(k, p, &candidate, NULL, 0) != TG_OK) continue; /* reason unused */
    const double cost = tg_plan_cost(&candidate, p);
    if (!plan->kernel || cost < best_cost || (cost == best_cost && k->rank > plan->kernel->rank)) {
      *plan = candidate;
      best_cost = cost;
    }
  }
  if (plan->kernel) return TG_OK;
  snprintf(why, why_len, "no kernel serves this request on sm_%d", p->sm);
  return TG_ERR_NOT_SUPPORTED;
}

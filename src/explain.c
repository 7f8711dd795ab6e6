/*
 * explain.c — tg_explain: the planner's decision for a request, in words. The same validation
 * and problem as tg_check, the same choice as tg_matmul (plan.c), and beside it every row's
 * modeled cost or the reason it cannot serve, so a user can see why a kernel was picked and
 * what the others would have cost. Touches no device memory and launches nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "handle.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "tilegemm.h"
#include "validate.h"

/* A bounded text buffer: appends until full, always terminated. */
typedef struct text {
  char *buf;
  size_t len, used;
} text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(text *t, const char *fmt, ...) {
  if (t->len == 0 || t->used + 1 >= t->len) return;
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
  va_end(ap);
  if (n > 0) t->used = t->used + (size_t)n < t->len ? t->used + (size_t)n : t->len - 1;
}

static const char *order_name(tg_order o) {
  return o == TG_ROW_MAJOR ? "row-major" : "column-major";
}

/* One row of the table: its modeled cost against the cost model's choice, or why it cannot serve. */
static void put_row(text *t, const tg_kernel *k, const tg_problem *p, const tg_plan *pick,
                    const tg_plan *model, double model_cost) {
  tg_plan plan;
  char why[256];
  put(t, "  %-28s ", k->name);
  if (tg_plan_for_kernel(k, p, &plan, why, sizeof why) != TG_OK) {
    put(t, "cannot serve: %s\n", why);
    return;
  }
  if (!k->auto_pick) { /* a teaching rung or the like: the cost model is not calibrated for it */
    put(t, "serves it when named%s; never picked unasked\n",
        k == pick->kernel ? " (named: picked)" : "");
    return;
  }
  const double cost = tg_plan_cost(&plan, p);
  put(t, "%6.3f%s%s%s%s\n", model_cost > 0.0 ? cost / model_cost : cost,
      k == pick->kernel ? "  <- picked" : "",
      k == model->kernel && k != pick->kernel ? "  <- the cost model's choice" : "",
      plan.tf32x3                      ? "  (after the 3xTF32 split)"
      : plan.repack_a || plan.repack_b ? "  (after repacking)"
                                       : "",
      plan.splits > 1 ? "  (split-K)" : "");
}

tg_status tg_explain(tg_handle *h, const tg_gemm *g, char *buf, size_t len) {
  static const char fn[] = "tg_explain";
  text t = {buf, buf ? len : 0, 0};
  if (t.len) buf[0] = '\0';
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  if (!buf && len)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'buf' is NULL with len %zu", fn, len);
  h->last_kernel = "";
  tg_layout L;
  tg_status s = tg_validate_gemm(h, fn, g, &L);
  if (s != TG_OK) {
    put(&t, "invalid request: %s\n", tg_last_error(h));
    return s;
  }
  put(&t,
      "request: m=%lld n=%lld k=%lld batch=%lld, A %s %s, B %s %s, C %s, D %s %s, alpha %g, beta "
      "%g, epilogue %s\n",
      (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch,
      tg_dtype_name(g->a_type), order_name(g->a_order), tg_dtype_name(g->b_type),
      order_name(g->b_order), tg_dtype_name(g->c_type), tg_dtype_name(g->d_type),
      order_name(g->c_order), g->alpha, g->beta, tg_epilogue_name(g->epilogue));
  put(&t, "device: sm_%d, %d SMs%s\n", h->sm, h->sm_count, h->device < 0 ? " (virtual)" : "");
  if (g->m == 0 || g->n == 0 || g->batch == 0) {
    put(&t, "nothing to compute: D has no elements\n");
    return tg_succeed(h);
  }
  const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
  tg_problem p;
  tg_problem_build(&p, g, &L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
  if (p.transposed)
    put(&t, "computed as the transposed problem (D column-major): D^T = B^T A^T, m=%lld n=%lld\n",
        (long long)p.m, (long long)p.n);
  if (p.k == 0) { /* tg_problem_build sets it for alpha == 0 too */
    put(&t, "%s: no product; the epilogue alone writes D from beta, C and the bias\n",
        g->k == 0 ? "k = 0" : "alpha = 0");
    h->last_kernel = TG_EPILOGUE_ONLY_NAME;
    return tg_succeed(h);
  }
  tg_plan pick;
  char why[256];
  s = tg_plan_choose(&p, g->kernel, &h->cache, &pick, why, sizeof why);
  if (s != TG_OK) {
    tg_fail(h, s, "%s: %s", fn, why);
    put(&t, "no plan: %s\n", why);
    return s;
  }
  h->last_kernel = pick.kernel->name;
  const int named = g->kernel && strcmp(g->kernel, "auto") != 0;
  if (named) put(&t, "kernel: %s (named by the request)\n", pick.kernel->name);
  else if (pick.tuned)
    put(&t,
        "kernel: %s (the tuning cache: tg_tune measured it fastest for this device, problem class "
        "and shape)\n",
        pick.kernel->name);
  else
    put(&t, "kernel: %s (the cost model: the lowest estimate among the rows that can serve)\n",
        pick.kernel->name);
  if (pick.tf32x3)
    put(&t,
        "  tile %dx%dx%d, A and B split into tf32 values and remainders in the workspace "
        "(3xTF32: a tf32 product of depth 3·k), split-K %d\n",
        pick.kernel->tile_m, pick.kernel->tile_n, pick.kernel->tile_k, pick.splits);
  else
    put(&t, "  tile %dx%dx%d, %s%s%s, split-K %d\n", pick.kernel->tile_m, pick.kernel->tile_n,
        pick.kernel->tile_k, pick.repack_a ? "A repacked, " : "",
        pick.repack_b ? "B repacked, " : "",
        pick.repack_a || pick.repack_b ? "into the workspace" : "no repacking", pick.splits);
  /* The cost model's own choice, with no name and no cache: the pick itself unless one of those chose. */
  tg_plan model = pick;
  if ((named || pick.tuned) && tg_plan_choose(&p, NULL, NULL, &model, why, sizeof why) != TG_OK)
    model = pick;
  const double model_cost = tg_plan_cost(&model, &p);
  put(&t,
      "modeled cost of each kernel against the cost model's choice, %s (lower is faster; kernels "
      "of other "
      "devices left out):\n",
      model.kernel->name);
  for (int i = 0, n = tg_registry_count(); i < n; ++i) {
    const tg_kernel *k = tg_registry_at(i);
    if (h->sm < k->sm_min || h->sm > k->sm_max) continue;
    put_row(&t, k, &p, &pick, &model, model_cost);
  }
  return tg_succeed(h);
}

/*
 * plan_api.c — planned requests: tg_plan_create, tg_plan_run, tg_plan_kernel, tg_plan_destroy.
 *
 * A plan does once what tg_matmul does at every call and what does not depend on the operand
 * pointers: validation, the canonical problem, the kernel choice, the workspace layout and size,
 * and, where the kernel's row can (kernel.h's prepare), its launch: TMA maps encoded, grid and
 * scheduler worked out. A run checks its pointers, gives the problem the run's pointers
 * (tg_problem_set_operands) and launches; operands aligned otherwise than the plan assumed are
 * planned anew for that run, as tg_matmul would plan them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "handle.h"
#include "launch.h"
#include "problem_build.h"
#include "request.h"
#include "tilegemm.h"

struct tg_matmul_plan {
  tg_prepared prep; /* the kernel's launch prepared for the runs, when `prepared` */
  int prepared;
  tg_handle *h;
  tg_gemm g; /* the request; g.kernel points at kernel_name or is NULL */
  char kernel_name[TG_PLAN_MEMO_NAME_BYTES];
  tg_layout L;
  int empty;        /* m, n or batch is 0: a run does nothing */
  tg_problem base;  /* built with TG_CHECK_FAKE_ADDRESS operands (16-byte aligned) */
  tg_launch launch; /* the choice for base, laid out */
};

/* Bytes a plan takes: a whole number of TG_PREPARED_ALIGN blocks (aligned_alloc's rule). */
static size_t plan_bytes(void) {
  return (sizeof(tg_matmul_plan) + TG_PREPARED_ALIGN - 1) / TG_PREPARED_ALIGN * TG_PREPARED_ALIGN;
}

/* Chooses and lays out the plan's kernel, sizes the workspace for it (so that a run under stream
 * capture allocates nothing) and has the kernel prepare its launch. */
static tg_status plan_kernel(tg_matmul_plan *P, const char *fn) {
  tg_handle *h = P->h;
  const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
  tg_problem_build(&P->base, &P->g, &P->L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
  tg_plan plan;
  tg_status s = tg_request_choose(h, fn, &P->g, &P->base, &plan);
  if (s != TG_OK) return s;
  tg_launch_layout(&P->launch, &plan, &P->base);
  if (plan.kernel && h->device >= 0) {
    int prev = 0;
    if ((s = tg_device_enter(h, fn, &prev)) != TG_OK) return s;
    s = tg_workspace_ensure(h, fn, P->launch.total);
    if (s == TG_OK) P->prepared = tg_launch_prepare(h, &P->launch, &P->base, &P->prep);
    tg_device_leave(h, prev);
  }
  return s;
}

tg_status tg_plan_create(tg_handle *h, const tg_gemm *g, tg_matmul_plan **out) {
  static const char fn[] = "tg_plan_create";
  if (!out) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'plan' is NULL", fn);
  *out = NULL;
  tg_layout L;
  int empty = 0;
  tg_status s = tg_request_begin(h, fn, g, &L, &empty);
  if (s != TG_OK) return s;
  if (g->kernel && strlen(g->kernel) >= TG_PLAN_MEMO_NAME_BYTES)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'kernel': no kernel is named '%.40s...'",
                   fn, g->kernel);
  tg_matmul_plan *P = (tg_matmul_plan *)aligned_alloc(TG_PREPARED_ALIGN, plan_bytes());
  if (!P) return tg_fail(h, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  memset(P, 0, plan_bytes());
  P->h = h;
  P->g = *g;
  P->L = L;
  P->empty = empty;
  if (g->kernel) {
    memcpy(P->kernel_name, g->kernel, strlen(g->kernel) + 1);
    P->g.kernel = P->kernel_name;
  }
  if (!empty) {
    if ((s = plan_kernel(P, fn)) != TG_OK) {
      free(P);
      return s;
    }
    h->last_kernel = P->launch.plan.kernel ? P->launch.plan.kernel->name : TG_EPILOGUE_ONLY_NAME;
  }
  *out = P;
  return tg_succeed(h);
}

/* 1 when a problem's operands are aligned otherwise than the plan's (the kernel choice and the
 * launch may differ for it). */
static int aligned_otherwise(const tg_problem *p, const tg_problem *base) {
  return p->align_a != base->align_a || p->align_b != base->align_b ||
         p->align_c != base->align_c || p->align_d != base->align_d;
}

tg_status tg_plan_run(tg_matmul_plan *P, const void *A, const void *B, const void *C, void *D,
                      tg_stream stream) {
  static const char fn[] = "tg_plan_run";
  if (!P) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'plan' is NULL", fn);
  tg_handle *h = P->h;
  h->last_kernel = "";
  if (P->empty) return tg_succeed(h);
  tg_status s = tg_validate_pointers(h, fn, &P->g, &P->L, A, B, C, D);
  if (s != TG_OK) return s;
  tg_problem p = P->base;
  tg_problem_set_operands(&p, A, B, C, D);
  if (!aligned_otherwise(&p, &P->base))
    return tg_launch_on_device(h, fn, &P->launch, &p, P->prepared ? &P->prep : NULL, stream);
  tg_plan again;
  if ((s = tg_request_choose(h, fn, &P->g, &p, &again)) != TG_OK) return s;
  tg_launch x;
  tg_launch_layout(&x, &again, &p);
  return tg_launch_on_device(h, fn, &x, &p, NULL, stream);
}

const char *tg_plan_kernel(const tg_matmul_plan *P) {
  if (!P) return "";
  const tg_kernel *k = P->launch.plan.kernel;
  return P->empty ? "" : k ? k->name : TG_EPILOGUE_ONLY_NAME;
}

void tg_plan_destroy(tg_matmul_plan *P) { free(P); }

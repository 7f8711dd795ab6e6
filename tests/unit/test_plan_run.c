/*
 * test_plan_run.c — what a planned run hands its kernel, with no GPU.
 *
 * A plan builds its problem once with placeholder operands (TG_CHECK_FAKE_ADDRESS), chooses and
 * lays out its kernel, and each run only sets the run's pointers (tg_problem_set_operands) and
 * binds them (tg_launch_bind); a run whose operands are aligned otherwise than the placeholders
 * is planned anew. Differential, over random requests (sizes, types, orders, leading dimensions,
 * batches and broadcast operands, beta, in-place C, bias, epilogues, alpha = 0 and k = 0, fp8
 * scales, forced kernels) and random operand offsets:
 *   - the plan's problem with the run's pointers is, byte for byte, the problem tg_matmul builds
 *     from them;
 *   - where the alignment is the plan's, tg_matmul chooses the plan's kernel and its kernel
 *     receives, byte for byte, what the planned run's receives (repacked operands and scratch
 *     at the same places in the workspace);
 *   - both kinds of run occur.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "handle.h"
#include "launch.h"
#include "problem_build.h"
#include "random_values.h"
#include "registry.h"
#include "request.h"
#include "tilegemm.h"
#include "validate.h"

#define H100_SM 90
#define H100_SMS 132
#define DRAWS 3000
/* Operands live 2^32 bytes apart (they never overlap), from 2^32 on. */
#define OPERAND_SPACING ((uintptr_t)1 << 32)
/* Where the binding puts the workspace and the readiness flags (never dereferenced). */
#define WORKSPACE_ADDRESS ((uintptr_t)0x7f0000000000ull)
#define FLAGS_ADDRESS ((uintptr_t)0x7e0000000000ull)

/* The test's draws: each the shared mixer (random_values.h) of its index, from a seed of its
 * own. */
static uint64_t g_draws = 0x2545f4914f6cdd1dull;
static unsigned draw(unsigned n) { return (unsigned)(tg_mix64(++g_draws) % n); }

typedef struct request {
  tg_gemm g;
  uintptr_t offset[4]; /* byte offsets of A, B, C, D from their aligned bases */
  int in_place;        /* C is D */
} request;

static void random_request(request *r) {
  static const int64_t sizes[] = {0, 1, 7, 64, 130, 1000, 4096};
  static const tg_dtype types[] = {TG_F16, TG_BF16, TG_F32, TG_S8, TG_E4M3};
  static const uintptr_t offsets[] = {0, 0, 0, 0, 1, 2, 4, 8, 16, 256};
  const tg_dtype t = types[draw(5)];
  const tg_dtype out = t == TG_S8 ? TG_S32 : t == TG_E4M3 ? TG_BF16 : t;
  memset(r, 0, sizeof *r);
  tg_gemm_init(&r->g, sizes[1 + draw(6)], sizes[1 + draw(6)], sizes[draw(7)], t, out);
  if (t == TG_F32 && draw(2)) r->g.compute = TG_COMPUTE_TF32;
  r->g.a_order = draw(2) ? TG_ROW_MAJOR : TG_COL_MAJOR;
  r->g.b_order = draw(2) ? TG_ROW_MAJOR : TG_COL_MAJOR;
  r->g.c_order = draw(2) ? TG_ROW_MAJOR : TG_COL_MAJOR;
  if (draw(4) == 0) { /* padded, sometimes odd, leading dimension of A */
    const int64_t inner = r->g.a_order == TG_ROW_MAJOR ? r->g.k : r->g.m;
    r->g.lda = (inner > 1 ? inner : 1) + draw(9);
  }
  if (draw(4) == 0) {
    r->g.batch = 3;
    if (draw(2)) r->g.batch_stride_b = TG_BATCH_BROADCAST;
  }
  if (t != TG_S8 && draw(2)) r->g.beta = draw(2) ? 1.0 : 0.5;
  if (draw(8) == 0) r->g.alpha = 0.0;
  if (draw(3) == 0) {
    static const tg_epilogue epilogues[] = {TG_EPI_BIAS, TG_EPI_RELU, TG_EPI_GELU, TG_EPI_BIAS_RELU,
                                            TG_EPI_BIAS_GELU};
    r->g.epilogue = epilogues[draw(5)];
    r->g.bias = (const void *)(uintptr_t)(5 * OPERAND_SPACING + 4 * draw(5));
  }
  if (t == TG_E4M3 && draw(2)) {
    r->g.scale_mode = (tg_scale_mode)(1 + draw(3));
    r->g.scale_a = (const float *)(6 * OPERAND_SPACING);
    r->g.scale_b = (const float *)(7 * OPERAND_SPACING);
  }
  if (draw(6) == 0) r->g.kernel = tg_registry_at((int)draw((unsigned)tg_registry_count()))->name;
  for (int i = 0; i < 4; ++i) {
    const size_t es = tg_dtype_size(i < 2 ? t : out);
    r->offset[i] = offsets[draw(10)] / es * es;
  }
  r->in_place = r->g.beta != 0.0 && draw(3) == 0;
}

static int same_plan(const tg_plan *x, const tg_plan *y) {
  return x->kernel == y->kernel && x->repack_a == y->repack_a && x->repack_b == y->repack_b &&
         x->a_order == y->a_order && x->b_order == y->b_order && x->splits == y->splits &&
         x->tuned == y->tuned;
}

static int same_alignment(const tg_problem *p, const tg_problem *q) {
  return p->align_a == q->align_a && p->align_b == q->align_b && p->align_c == q->align_c &&
         p->align_d == q->align_d;
}

/* Counts of the runs that keep the plan and of those planned anew. */
static int g_kept, g_replanned;

static void check_request(tg_handle *h, const request *r, int index) {
  static const char fn[] = "test_plan_run";
  tg_layout L;
  if (tg_validate_gemm(h, fn, &r->g, &L) != TG_OK) return;
  if (r->g.m == 0 || r->g.n == 0 || r->g.batch == 0) return;
  const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
  tg_problem base;
  tg_problem_build(&base, &r->g, &L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
  tg_plan planned;
  if (tg_request_choose(h, fn, &r->g, &base, &planned) != TG_OK) return; /* a forced misfit */
  tg_launch x_plan;
  tg_launch_layout(&x_plan, &planned, &base);

  const void *ptr[4];
  for (int i = 0; i < 4; ++i) ptr[i] = (const void *)((i + 1) * OPERAND_SPACING + r->offset[i]);
  if (r->in_place) ptr[2] = ptr[3];
  if (tg_validate_pointers(h, fn, &r->g, &L, ptr[0], ptr[1], ptr[2], ptr[3]) != TG_OK) return;

  tg_problem run = base, direct;
  tg_problem_set_operands(&run, ptr[0], ptr[1], ptr[2], (void *)ptr[3]);
  tg_problem_build(&direct, &r->g, &L, ptr[0], ptr[1], ptr[2], (void *)ptr[3], h->sm, h->sm_count);
  CHECK_MSG(memcmp(&run, &direct, sizeof run) == 0,
            "request %d: the plan's problem with the run's pointers is not tg_matmul's", index);
  if (!same_alignment(&run, &base)) {
    ++g_replanned;
    return;
  }
  ++g_kept;
  tg_plan chosen;
  CHECK_MSG(
      tg_request_choose(h, fn, &r->g, &direct, &chosen) == TG_OK && same_plan(&chosen, &planned),
      "request %d: tg_matmul chooses otherwise than the plan (%s)", index, tg_last_error(h));
  tg_launch x_direct;
  tg_launch_layout(&x_direct, &chosen, &direct);
  CHECK_MSG(x_plan.total == x_direct.total && x_plan.kernel_bytes == x_direct.kernel_bytes &&
                x_plan.a_at == x_direct.a_at && x_plan.b_at == x_direct.b_at,
            "request %d: the workspace is laid out otherwise", index);
  if (!planned.kernel) return; /* the epilogue alone runs the problem as it is */
  tg_problem q_plan, q_direct;
  void *ws = (void *)WORKSPACE_ADDRESS;
  unsigned *flags = (unsigned *)FLAGS_ADDRESS;
  tg_launch_bind(&x_plan, &run, ws, flags, &q_plan);
  tg_launch_bind(&x_direct, &direct, ws, flags, &q_direct);
  CHECK_MSG(memcmp(&q_plan, &q_direct, sizeof q_plan) == 0,
            "request %d (%s): the kernel receives another problem from the planned run", index,
            planned.kernel->name);
}

int main(void) {
  tg_handle *h = NULL;
  if (tg_create_virtual(&h, H100_SM, H100_SMS) != TG_OK) {
    fprintf(stderr, "tg_create_virtual: %s\n", tg_last_error(NULL));
    return 1;
  }
  for (int i = 0; i < DRAWS; ++i) {
    request r;
    random_request(&r);
    check_request(h, &r, i);
  }
  CHECK_MSG(g_kept > DRAWS / 10 && g_replanned > DRAWS / 20,
            "runs that keep the plan: %d, planned anew: %d", g_kept, g_replanned);
  tg_destroy(h);
  return tg_test_finish("test_plan_run");
}

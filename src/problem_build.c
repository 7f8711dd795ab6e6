/*
 * problem_build.c — the canonical form: D row-major. A column-major D is computed as
 * D^T = B^T · A^T, which swaps the operands and flips their orders (a row-major K×N B read
 * as N×K is column-major with the same ld), swaps m and n, and moves the bias to the rows.
 */
#include "problem_build.h"

#include <string.h>

#define TG_MAX_ALIGN 16

static tg_order flip(tg_order o) { return o == TG_ROW_MAJOR ? TG_COL_MAJOR : TG_ROW_MAJOR; }

int tg_alignment_bytes(const void *ptr, int64_t ld, int64_t batch_stride, int64_t batch,
                       size_t elem_bytes) {
  uint64_t bits = (uint64_t)(uintptr_t)ptr | (uint64_t)ld * elem_bytes | TG_MAX_ALIGN;
  if (batch > 1) bits |= (uint64_t)batch_stride * elem_bytes;
  return (int)(bits & (~bits + 1)); /* lowest set bit */
}

void tg_problem_set_operands(tg_problem *p, const void *A, const void *B, const void *C, void *D) {
  p->a = p->transposed ? B : A;
  p->b = p->transposed ? A : B;
  if (p->k == 0) p->a = p->b = NULL;
  p->c = p->read_c ? C : NULL;
  p->d = D;
  p->align_a =
      tg_alignment_bytes(p->a, p->lda, p->batch_stride_a, p->batch, tg_dtype_size(p->a_type));
  p->align_b =
      tg_alignment_bytes(p->b, p->ldb, p->batch_stride_b, p->batch, tg_dtype_size(p->b_type));
  p->align_c =
      tg_alignment_bytes(p->c, p->ldc, p->batch_stride_c, p->batch, tg_dtype_size(p->c_type));
  p->align_d =
      tg_alignment_bytes(p->d, p->ldd, p->batch_stride_d, p->batch, tg_dtype_size(p->d_type));
}

void tg_problem_build(tg_problem *p, const tg_gemm *g, const tg_layout *L, const void *A,
                      const void *B, const void *C, void *D, int sm, int sm_count) {
  memset(p, 0, sizeof *p);
  p->batch = g->batch;
  p->k = g->alpha != 0.0 ? g->k : 0;
  p->input = L->input;
  p->c_type = g->c_type;
  p->d_type = g->d_type;
  p->alpha = g->alpha;
  p->beta = g->beta;
  p->alpha_f = (float)g->alpha;
  p->beta_f = (float)g->beta;
  p->read_c = g->beta != 0.0;
  p->ldc = L->c.ld;
  p->ldd = L->d.ld;
  p->batch_stride_c = L->c.batch_stride;
  p->batch_stride_d = L->d.batch_stride;
  p->has_bias = tg_epilogue_has_bias(g->epilogue);
  p->bias = p->has_bias ? g->bias : NULL;
  p->bias_type = p->has_bias ? g->bias_type : TG_F32;
  p->act = tg_epilogue_activation(g->epilogue);
  p->exact_int =
      g->d_type == TG_S32 && g->alpha == 1.0 && g->beta == 0.0 && g->epilogue == TG_EPI_NONE;
  p->transposed = g->c_order == TG_COL_MAJOR;
  p->bias_along_m = p->transposed;

  /* Operand roles in the canonical frame. */
  const tg_extent *ea = p->transposed ? &L->b : &L->a;
  const tg_extent *eb = p->transposed ? &L->a : &L->b;
  p->m = p->transposed ? g->n : g->m;
  p->n = p->transposed ? g->m : g->n;
  p->a_type = p->transposed ? g->b_type : g->a_type;
  p->b_type = p->transposed ? g->a_type : g->b_type;
  p->a_order = p->transposed ? flip(ea->order) : ea->order;
  p->b_order = p->transposed ? flip(eb->order) : eb->order;
  p->lda = ea->ld;
  p->ldb = eb->ld;
  p->batch_stride_a = ea->batch_stride;
  p->batch_stride_b = eb->batch_stride;
  tg_problem_set_operands(p, A, B, C, D);
  p->align_bias = tg_alignment_bytes(p->bias, 0, 0, 1, tg_dtype_size(p->bias_type));
  p->sm = sm;
  p->sm_count = sm_count;

  /* Scales follow their operands into the canonical frame; a shared operand shares its scales. */
  p->fast_accum = g->fp8_fast_accum;
  if (g->scale_mode != TG_SCALE_NONE && p->k > 0) {
    p->scale_mode = g->scale_mode;
    p->scale_a_blocks = g->scale_mode == TG_SCALE_BLOCK && p->transposed;
    p->scale_a = p->transposed ? g->scale_b : g->scale_a;
    p->scale_b = p->transposed ? g->scale_a : g->scale_b;
    p->scale_stride_a =
        p->batch_stride_a == 0 ? 0 : tg_scale_floats(p->scale_mode, p->scale_a_blocks, p->m, p->k);
    p->scale_stride_b =
        p->batch_stride_b == 0
            ? 0
            : tg_scale_floats(p->scale_mode, p->scale_mode == TG_SCALE_BLOCK && !p->scale_a_blocks,
                              p->n, p->k);
  }
}

/*
 * validate.c — every argument check of the public API, in the order of tg_gemm's fields.
 *
 * The first bad parameter wins: its name appears in single quotes in the message, e.g.
 *   tg_matmul: parameter 'lda' = 3 is below the packed value 4 (k of a row-major A)
 * Domain errors (negative sizes, unknown enums, short leading dimensions, overlapping batches,
 * int64 overflow, NULL pointers) are TG_ERR_INVALID_VALUE and are all checked before the type
 * combination, which is TG_ERR_NOT_SUPPORTED when well-formed but outside the API's table.
 */
#include "validate.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "registry.h"

#define BAD(param, ...) tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter '" param "' " __VA_ARGS__)

static int mul_overflows(int64_t a, int64_t b, int64_t *out) {
  return __builtin_mul_overflow(a, b, out);
}
static int add_overflows(int64_t a, int64_t b, int64_t *out) {
  return __builtin_add_overflow(a, b, out);
}

static int dtype_known(tg_dtype t) { return (unsigned)t < TG_DTYPE_COUNT; }
static int order_known(tg_order o) { return o == TG_ROW_MAJOR || o == TG_COL_MAJOR; }
static int is_fp8(tg_dtype t) { return t == TG_E4M3 || t == TG_E5M2; }
static int is_float_out(tg_dtype t) { return t == TG_F32 || t == TG_F16 || t == TG_BF16; }
static int is_int_out(tg_dtype t) { return t == TG_S32 || t == TG_S8; }

/* Sets the shape/order facts of one operand; the stored matrix is rows × cols. */
static void describe(tg_extent *e, int64_t rows, int64_t cols, tg_order order, tg_dtype t) {
  memset(e, 0, sizeof *e);
  e->rows = rows;
  e->cols = cols;
  e->order = order;
  e->elem_bytes = tg_dtype_size(t);
}
static int64_t inner_of(const tg_extent *e) { return e->order == TG_ROW_MAJOR ? e->cols : e->rows; }
static int64_t outer_of(const tg_extent *e) { return e->order == TG_ROW_MAJOR ? e->rows : e->cols; }

/* ld: 0 means packed; otherwise >= max(1, inner extent). */
static int resolve_ld(tg_extent *e, int64_t ld) {
  int64_t packed = inner_of(e) > 1 ? inner_of(e) : 1;
  if (ld == 0) ld = packed;
  if (ld < packed) return 0;
  e->ld = ld;
  return 1;
}

static const char *order_word(tg_order o) { return o == TG_ROW_MAJOR ? "row" : "column"; }

/* Checks ld and names it; `what` says which extent bounds it ("k of a row-major A"). */
static tg_status check_ld(tg_handle *h, const char *fn, const char *name, tg_extent *e, int64_t ld,
                          char op) {
  if (ld < 0 || !resolve_ld(e, ld)) {
    int64_t packed = inner_of(e) > 1 ? inner_of(e) : 1;
    char dim = e->order == TG_ROW_MAJOR ? (op == 'A' ? 'k' : 'n') : (op == 'B' ? 'k' : 'm');
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter '%s' = %lld is below the packed value %lld (%c of a %s-major %c)",
                   fn, name, (long long)ld, (long long)packed, dim, order_word(e->order), op);
  }
  return TG_OK;
}

/* Batch stride: 0 = packed, TG_BATCH_BROADCAST = 0 (inputs only), else >= 0 as given. The
 * packed value may overflow; that is caught by the span check that follows. */
static tg_status check_stride(tg_handle *h, const char *fn, const char *name, tg_extent *e,
                              int64_t stride, int may_broadcast) {
  if (stride == TG_BATCH_BROADCAST && may_broadcast) {
    e->batch_stride = 0;
    return TG_OK;
  }
  if (stride < 0) {
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter '%s' = %lld is negative (0 = packed%s)",
                   fn, name, (long long)stride,
                   may_broadcast ? ", TG_BATCH_BROADCAST = shared" : "");
  }
  if (stride == 0) {
    int64_t packed;
    if (mul_overflows(e->ld, outer_of(e), &packed)) packed = INT64_MAX;
    stride = packed;
  }
  e->batch_stride = stride;
  return TG_OK;
}

/* Bytes spanned from the base pointer over all batches, with int64 overflow checks. */
static tg_status check_span(tg_handle *h, const char *fn, char op, const char *ld_name,
                            const char *stride_name, tg_extent *e, int64_t batch) {
  int64_t elems, last_batch;
  e->span_bytes = 0;
  if (e->rows == 0 || e->cols == 0 || batch == 0) return TG_OK;
  if (mul_overflows(outer_of(e) - 1, e->ld, &elems) || add_overflows(elems, inner_of(e), &elems) ||
      mul_overflows(elems, (int64_t)e->elem_bytes, &last_batch)) {
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter '%s': %c spans %lld x %lld elements with ld %lld, past int64 "
                   "byte offsets",
                   fn, ld_name, op, (long long)e->rows, (long long)e->cols, (long long)e->ld);
  }
  if (mul_overflows(batch - 1, e->batch_stride, &last_batch) ||
      add_overflows(last_batch, elems, &elems) ||
      mul_overflows(elems, (int64_t)e->elem_bytes, &e->span_bytes)) {
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter '%s': %lld batches of %c at stride %lld overflow int64 byte "
                   "offsets",
                   fn, stride_name, (long long)batch, op, (long long)e->batch_stride);
  }
  return TG_OK;
}

/* Which (a, b, compute) family a request belongs to; NOT_SUPPORTED names the parameter. */
static tg_status classify_inputs(tg_handle *h, const char *fn, const tg_gemm *g,
                                 tg_input_class *cls) {
  const char *an = tg_dtype_name(g->a_type), *bn = tg_dtype_name(g->b_type);
  if (g->compute == TG_COMPUTE_S32) {
    if (g->a_type != TG_S8)
      return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                     "%s: parameter 'a_type' = %s is not supported with compute s32 (needs s8)", fn,
                     an);
    if (g->b_type != TG_S8)
      return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                     "%s: parameter 'b_type' = %s is not supported with compute s32 (needs s8)", fn,
                     bn);
    *cls = TG_IN_S8;
  } else if (g->compute == TG_COMPUTE_TF32 || g->compute == TG_COMPUTE_3XTF32) {
    const char *cn = g->compute == TG_COMPUTE_TF32 ? "tf32" : "3xtf32";
    if (g->a_type != TG_F32)
      return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                     "%s: parameter 'a_type' = %s is not supported with compute %s (needs f32)", fn,
                     an, cn);
    if (g->b_type != TG_F32)
      return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                     "%s: parameter 'b_type' = %s is not supported with compute %s (needs f32)", fn,
                     bn, cn);
    *cls = g->compute == TG_COMPUTE_TF32 ? TG_IN_TF32 : TG_IN_TF32X3;
  } else {
    if (g->a_type == TG_S8 || g->a_type == TG_S32)
      return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                     "%s: parameter 'a_type' = %s needs compute s32 (integer inputs)", fn, an);
    if (is_fp8(g->a_type) && is_fp8(g->b_type)) {
      *cls = TG_IN_FP8;
    } else if (g->a_type != g->b_type || is_fp8(g->a_type)) {
      return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                     "%s: parameter 'b_type' = %s does not pair with a_type %s (same 16/32-bit "
                     "type, or fp8 with fp8)",
                     fn, bn, an);
    } else {
      *cls = g->a_type == TG_F32 ? TG_IN_F32 : g->a_type == TG_F16 ? TG_IN_F16 : TG_IN_BF16;
    }
  }
  int int_path = *cls == TG_IN_S8;
  if (int_path ? !is_int_out(g->c_type) : !is_float_out(g->c_type))
    return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                   "%s: parameter 'c_type' = %s is not supported for %s inputs (use %s)", fn,
                   tg_dtype_name(g->c_type), an, int_path ? "s32 or s8" : "f32, f16 or bf16");
  if (int_path ? !is_int_out(g->d_type) : !is_float_out(g->d_type))
    return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                   "%s: parameter 'd_type' = %s is not supported for %s inputs (use %s)", fn,
                   tg_dtype_name(g->d_type), an, int_path ? "s32 or s8" : "f32, f16 or bf16");
  if (tg_epilogue_has_bias(g->epilogue) && !is_float_out(g->bias_type))
    return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                   "%s: parameter 'bias_type' = %s is not supported (use f32, f16 or bf16)", fn,
                   tg_dtype_name(g->bias_type));
  return TG_OK;
}

tg_status tg_validate_gemm(tg_handle *h, const char *fn, const tg_gemm *g, tg_layout *L) {
  tg_status s;
  if (!g) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'g' is NULL", fn);
  if (g->m < 0) return BAD("m", "= %lld is negative", fn, (long long)g->m);
  if (g->n < 0) return BAD("n", "= %lld is negative", fn, (long long)g->n);
  if (g->k < 0) return BAD("k", "= %lld is negative", fn, (long long)g->k);
  if (g->batch < 0) return BAD("batch", "= %lld is negative", fn, (long long)g->batch);
  if (!dtype_known(g->a_type)) return BAD("a_type", "= %d is not a tg_dtype", fn, (int)g->a_type);
  if (!dtype_known(g->b_type)) return BAD("b_type", "= %d is not a tg_dtype", fn, (int)g->b_type);
  if (!dtype_known(g->c_type)) return BAD("c_type", "= %d is not a tg_dtype", fn, (int)g->c_type);
  if (!dtype_known(g->d_type)) return BAD("d_type", "= %d is not a tg_dtype", fn, (int)g->d_type);
  if ((unsigned)g->compute > TG_COMPUTE_3XTF32)
    return BAD("compute", "= %d is not a tg_compute", fn, (int)g->compute);
  if (!order_known(g->a_order))
    return BAD("a_order", "= %d is not a tg_order", fn, (int)g->a_order);
  if (!order_known(g->b_order))
    return BAD("b_order", "= %d is not a tg_order", fn, (int)g->b_order);
  if (!order_known(g->c_order))
    return BAD("c_order", "= %d is not a tg_order", fn, (int)g->c_order);

  describe(&L->a, g->m, g->k, g->a_order, g->a_type);
  describe(&L->b, g->k, g->n, g->b_order, g->b_type);
  describe(&L->c, g->m, g->n, g->c_order, g->c_type);
  describe(&L->d, g->m, g->n, g->c_order, g->d_type);
  if ((s = check_ld(h, fn, "lda", &L->a, g->lda, 'A')) != TG_OK) return s;
  if ((s = check_ld(h, fn, "ldb", &L->b, g->ldb, 'B')) != TG_OK) return s;
  if ((s = check_ld(h, fn, "ldc", &L->c, g->ldc, 'C')) != TG_OK) return s;
  if ((s = check_ld(h, fn, "ldd", &L->d, g->ldd, 'D')) != TG_OK) return s;
  if ((s = check_stride(h, fn, "batch_stride_a", &L->a, g->batch_stride_a, 1)) != TG_OK) return s;
  if ((s = check_stride(h, fn, "batch_stride_b", &L->b, g->batch_stride_b, 1)) != TG_OK) return s;
  if ((s = check_stride(h, fn, "batch_stride_c", &L->c, g->batch_stride_c, 1)) != TG_OK) return s;
  if (g->batch_stride_d == TG_BATCH_BROADCAST)
    return BAD("batch_stride_d", "= TG_BATCH_BROADCAST: batches of D cannot share storage", fn);
  if ((s = check_stride(h, fn, "batch_stride_d", &L->d, g->batch_stride_d, 0)) != TG_OK) return s;
  if (!isfinite(g->alpha)) return BAD("alpha", "is not finite", fn);
  if (!isfinite(g->beta)) return BAD("beta", "is not finite", fn);
  if ((unsigned)g->epilogue > TG_EPI_BIAS_GELU)
    return BAD("epilogue", "= %d is not a tg_epilogue", fn, (int)g->epilogue);
  if (tg_epilogue_has_bias(g->epilogue) && !dtype_known(g->bias_type))
    return BAD("bias_type", "= %d is not a tg_dtype", fn, (int)g->bias_type);
  if (g->kernel && strcmp(g->kernel, "auto") != 0 && !tg_registry_find(g->kernel))
    return BAD("kernel", "= \"%s\" names no registered kernel (see `tilegemm list`)", fn,
               g->kernel);

  if ((s = check_span(h, fn, 'A', "lda", "batch_stride_a", &L->a, g->batch)) != TG_OK) return s;
  if ((s = check_span(h, fn, 'B', "ldb", "batch_stride_b", &L->b, g->batch)) != TG_OK) return s;
  if ((s = check_span(h, fn, 'C', "ldc", "batch_stride_c", &L->c, g->batch)) != TG_OK) return s;
  if ((s = check_span(h, fn, 'D', "ldd", "batch_stride_d", &L->d, g->batch)) != TG_OK) return s;
  if (g->batch > 1 && g->m > 0 && g->n > 0) {
    int64_t one_d = (outer_of(&L->d) - 1) * L->d.ld + inner_of(&L->d); /* no overflow: spanned */
    if (L->d.batch_stride < one_d)
      return BAD("batch_stride_d", "= %lld makes batches of D overlap (one D spans %lld elements)",
                 fn, (long long)L->d.batch_stride, (long long)one_d);
  }
  if ((s = classify_inputs(h, fn, g, &L->input)) != TG_OK) return s;
  if ((unsigned)g->scale_mode > TG_SCALE_BLOCK)
    return BAD("scale_mode", "= %d is not a tg_scale_mode", fn, (int)g->scale_mode);
  if (g->scale_mode != TG_SCALE_NONE && L->input != TG_IN_FP8)
    return BAD("scale_mode", "= %d: scales apply to e4m3/e5m2 inputs only", fn, (int)g->scale_mode);
  if (g->fp8_fast_accum != 0 && g->fp8_fast_accum != 1)
    return BAD("fp8_fast_accum", "= %d is neither 0 nor 1", fn, g->fp8_fast_accum);
  if (g->fp8_fast_accum && L->input != TG_IN_FP8)
    return BAD("fp8_fast_accum", "= 1 applies to e4m3/e5m2 inputs only", fn);
  return TG_OK;
}

static int ranges_overlap(const void *p, int64_t pn, const void *q, int64_t qn) {
  uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
  if (pn <= 0 || qn <= 0) return 0;
  return a < b + (uint64_t)qn && b < a + (uint64_t)pn;
}

tg_status tg_validate_pointers(tg_handle *h, const char *fn, const tg_gemm *g, const tg_layout *L,
                               const void *A, const void *B, const void *C, const void *D) {
  int reads_ab = g->alpha != 0.0 && g->k > 0;
  int reads_c = g->beta != 0.0;
  if (reads_ab && !A) return BAD("A", "is NULL but alpha != 0 and k > 0", fn);
  if (reads_ab && !B) return BAD("B", "is NULL but alpha != 0 and k > 0", fn);
  if (reads_c && !C) return BAD("C", "is NULL but beta != 0", fn);
  if (!D) return BAD("D", "is NULL", fn);
  if (tg_epilogue_has_bias(g->epilogue) && !g->bias)
    return BAD("bias", "is NULL but the epilogue adds a bias", fn);
  if (reads_ab && g->scale_mode != TG_SCALE_NONE) {
    if (!g->scale_a) return BAD("scale_a", "is NULL but scale_mode asks for scales", fn);
    if (!g->scale_b) return BAD("scale_b", "is NULL but scale_mode asks for scales", fn);
    if ((uintptr_t)g->scale_a % sizeof(float))
      return BAD("scale_a", "is not 4-byte aligned (fp32 scales)", fn);
    if ((uintptr_t)g->scale_b % sizeof(float))
      return BAD("scale_b", "is not 4-byte aligned (fp32 scales)", fn);
  }
  if (reads_c && C == D) {
    if (L->c.ld != L->d.ld || L->c.batch_stride != L->d.batch_stride || g->c_type != g->d_type)
      return BAD(
          "C", "aliases D but differs in ld, batch stride or type (in-place needs all equal)", fn);
  } else if (reads_c && ranges_overlap(C, L->c.span_bytes, D, L->d.span_bytes)) {
    return BAD("C", "overlaps D without being the same matrix", fn);
  }
  if (reads_ab && ranges_overlap(A, L->a.span_bytes, D, L->d.span_bytes))
    return BAD("A", "overlaps D", fn);
  if (reads_ab && ranges_overlap(B, L->b.span_bytes, D, L->d.span_bytes))
    return BAD("B", "overlaps D", fn);
  return TG_OK;
}

/*
 * test_validate.c — every argument check of the public API, with no GPU: a virtual sm_90
 * handle runs validation and planning for real. For each bad request: the documented status,
 * the parameter named in single quotes, the entry point named, and nothing written.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "tilegemm.h"

#define BUF_BYTES 4096
#define SENTINEL 0xAB

static unsigned char buf_a[BUF_BYTES], buf_b[BUF_BYTES], buf_c[BUF_BYTES], buf_d[BUF_BYTES],
    buf_bias[BUF_BYTES];
static tg_handle *h;

static void reset_buffers(void) {
  memset(buf_a, SENTINEL, BUF_BYTES);
  memset(buf_b, SENTINEL, BUF_BYTES);
  memset(buf_c, SENTINEL, BUF_BYTES);
  memset(buf_d, SENTINEL, BUF_BYTES);
  memset(buf_bias, SENTINEL, BUF_BYTES);
}

static int buffers_untouched(void) {
  const unsigned char *all[] = {buf_a, buf_b, buf_c, buf_d, buf_bias};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < BUF_BYTES; ++j)
      if (all[i][j] != SENTINEL) return 0;
  return 1;
}

/* A valid 4×5×6 f32 request. */
static void base(tg_gemm *g) {
  tg_gemm_init(g, 4, 5, 6, TG_F32, TG_F32);
  g->bias = buf_bias;
}

static int names(const char *msg, const char *param) {
  char quoted[64];
  snprintf(quoted, sizeof quoted, "'%s'", param);
  return strstr(msg, quoted) != NULL;
}

/* tg_check and tg_matmul must both refuse *g with `status`, naming `param`. */
static void expect_refused(const tg_gemm *g, tg_status status, const char *param, int line) {
  reset_buffers();
  tg_status s = tg_check(h, g);
  CHECK_MSG(s == status, "line %d: tg_check returned %s, expected %s (%s)", line,
            tg_status_string(s), tg_status_string(status), tg_last_error(h));
  CHECK_MSG(names(tg_last_error(h), param), "line %d: tg_check message does not name '%s': %s",
            line, param, tg_last_error(h));
  CHECK_MSG(strncmp(tg_last_error(h), "tg_check:", 9) == 0, "line %d: %s", line, tg_last_error(h));
  CHECK_MSG(tg_last_kernel(h)[0] == '\0', "line %d: a kernel was chosen", line);
  s = tg_matmul(h, g, buf_a, buf_b, buf_c, buf_d, 0);
  CHECK_MSG(s == status, "line %d: tg_matmul returned %s, expected %s (%s)", line,
            tg_status_string(s), tg_status_string(status), tg_last_error(h));
  CHECK_MSG(names(tg_last_error(h), param), "line %d: tg_matmul message does not name '%s': %s",
            line, param, tg_last_error(h));
  CHECK_MSG(strncmp(tg_last_error(h), "tg_matmul:", 10) == 0, "line %d: %s", line,
            tg_last_error(h));
  CHECK_MSG(buffers_untouched(), "line %d: a buffer was written", line);
}

/* tg_matmul with these pointers must refuse, naming `param`. */
static void expect_pointer_refused(const tg_gemm *g, const void *A, const void *B, const void *C,
                                   void *D, const char *param, int line) {
  reset_buffers();
  tg_status s = tg_matmul(h, g, A, B, C, D, 0);
  CHECK_MSG(s == TG_ERR_INVALID_VALUE, "line %d: tg_matmul returned %s (%s)", line,
            tg_status_string(s), tg_last_error(h));
  CHECK_MSG(names(tg_last_error(h), param), "line %d: message does not name '%s': %s", line, param,
            tg_last_error(h));
  CHECK_MSG(buffers_untouched(), "line %d: a buffer was written", line);
}

/* Valid: passes validation; the virtual handle then reports NO_DEVICE (nothing launched). */
static void expect_valid(const tg_gemm *g, const void *A, const void *B, const void *C, void *D,
                         int line) {
  reset_buffers();
  tg_status s = tg_check(h, g);
  CHECK_MSG(s == TG_OK, "line %d: tg_check returned %s (%s)", line, tg_status_string(s),
            tg_last_error(h));
  s = tg_matmul(h, g, A, B, C, D, 0);
  CHECK_MSG(s == TG_ERR_NO_DEVICE, "line %d: tg_matmul returned %s (%s)", line, tg_status_string(s),
            tg_last_error(h));
  CHECK_MSG(buffers_untouched(), "line %d: a buffer was written", line);
}

#define REFUSED(status, param, ...)              \
  do {                                           \
    tg_gemm g;                                   \
    base(&g);                                    \
    __VA_ARGS__;                                 \
    expect_refused(&g, status, param, __LINE__); \
  } while (0)
#define INVALID(param, ...) REFUSED(TG_ERR_INVALID_VALUE, param, __VA_ARGS__)
#define UNSUPPORTED(param, ...) REFUSED(TG_ERR_NOT_SUPPORTED, param, __VA_ARGS__)
#define VALID(...)                                          \
  do {                                                      \
    tg_gemm g;                                              \
    base(&g);                                               \
    __VA_ARGS__;                                            \
    expect_valid(&g, buf_a, buf_b, buf_c, buf_d, __LINE__); \
  } while (0)

static void test_sizes_and_enums(void) {
  INVALID("m", g.m = -1);
  INVALID("n", g.n = -1);
  INVALID("k", g.k = -3);
  INVALID("batch", g.batch = -1);
  INVALID("a_type", g.a_type = (tg_dtype)99);
  INVALID("b_type", g.b_type = (tg_dtype)-1);
  INVALID("c_type", g.c_type = (tg_dtype)TG_DTYPE_COUNT);
  INVALID("d_type", g.d_type = (tg_dtype)7);
  INVALID("compute", g.compute = (tg_compute)(TG_COMPUTE_3XTF32 + 1));
  INVALID("a_order", g.a_order = (tg_order)2);
  INVALID("b_order", g.b_order = (tg_order)-1);
  INVALID("c_order", g.c_order = (tg_order)5);
  INVALID("epilogue", g.epilogue = (tg_epilogue)6);
  INVALID("bias_type", g.epilogue = TG_EPI_BIAS; g.bias_type = (tg_dtype)42);
  INVALID("alpha", g.alpha = NAN);
  INVALID("alpha", g.alpha = INFINITY);
  INVALID("beta", g.beta = -INFINITY);
  INVALID("kernel", g.kernel = "no_such_kernel");
  /* bias_type is not looked at without a bias epilogue. */
  VALID(g.bias_type = (tg_dtype)42);
  VALID(g.kernel = "auto");
  VALID(g.kernel = "ref");
}

static void test_leading_dimensions(void) {
  /* A is 4×6: row-major needs lda >= 6, column-major lda >= 4. */
  INVALID("lda", g.lda = 5);
  INVALID("lda", g.lda = -1);
  INVALID("lda", g.a_order = TG_COL_MAJOR; g.lda = 3);
  VALID(g.a_order = TG_COL_MAJOR; g.lda = 4);
  VALID(g.lda = 7);
  /* B is 6×5. */
  INVALID("ldb", g.ldb = 4);
  INVALID("ldb", g.b_order = TG_COL_MAJOR; g.ldb = 5);
  VALID(g.b_order = TG_COL_MAJOR; g.ldb = 6);
  /* C and D are 4×5. */
  INVALID("ldc", g.ldc = 4);
  INVALID("ldd", g.ldd = 4);
  INVALID("ldc", g.c_order = TG_COL_MAJOR; g.ldc = 3);
  INVALID("ldd", g.c_order = TG_COL_MAJOR; g.ldd = 3);
  VALID(g.c_order = TG_COL_MAJOR; g.ldc = 4; g.ldd = 9);
  /* ld >= 1 even for empty matrices (BLAS); 0 means packed. */
  VALID(g.k = 0; g.lda = 0);
}

static void test_batch_strides(void) {
  INVALID("batch_stride_a", g.batch_stride_a = -2);
  INVALID("batch_stride_b", g.batch_stride_b = -5);
  INVALID("batch_stride_c", g.batch_stride_c = -7);
  INVALID("batch_stride_d", g.batch_stride_d = TG_BATCH_BROADCAST);
  INVALID("batch_stride_d", g.batch = 2; g.batch_stride_d = 19); /* one D spans 20 */
  VALID(g.batch = 2; g.batch_stride_d = 20);
  VALID(g.batch = 2; g.batch_stride_a = TG_BATCH_BROADCAST; g.batch_stride_b = 1);
  /* With one batch the stride of D does not matter. */
  VALID(g.batch = 1; g.batch_stride_d = 1);
}

static void test_overflow(void) {
  INVALID("lda", g.m = (int64_t)1 << 40; g.k = (int64_t)1 << 40; g.n = 1);
  /* A (4 bytes × 2^58) and C (f16, 2^61 elements) fit; D (f32) passes 2^63 bytes. */
  INVALID("ldd", g.m = (int64_t)1 << 58; g.n = 8; g.k = 1; g.c_type = TG_F16);
  INVALID("ldc", g.m = (int64_t)1 << 60; g.n = 8; g.k = 1);
  INVALID("batch_stride_a", g.m = 4096; g.n = 1; g.k = 4096; g.batch = (int64_t)1 << 40);
  INVALID("batch_stride_b", g.batch = 3; g.batch_stride_b = INT64_MAX / 2);
}

static void test_type_combinations(void) {
  UNSUPPORTED("b_type", g.a_type = TG_F16; g.b_type = TG_BF16);
  UNSUPPORTED("b_type", g.a_type = TG_E4M3; g.b_type = TG_F16);
  UNSUPPORTED("b_type", g.a_type = TG_F32; g.b_type = TG_E5M2);
  UNSUPPORTED("a_type", g.a_type = TG_S8; g.b_type = TG_S8); /* needs compute s32 */
  UNSUPPORTED("a_type", g.a_type = TG_S32; g.b_type = TG_S32);
  UNSUPPORTED("a_type", g.compute = TG_COMPUTE_S32); /* f32 inputs */
  UNSUPPORTED("b_type", g.compute = TG_COMPUTE_S32; g.a_type = TG_S8);
  UNSUPPORTED("a_type", g.compute = TG_COMPUTE_TF32; g.a_type = g.b_type = TG_BF16);
  UNSUPPORTED("d_type", g.d_type = TG_S32);
  UNSUPPORTED("d_type", g.d_type = TG_E4M3);
  UNSUPPORTED("c_type", g.c_type = TG_S8);
  UNSUPPORTED("d_type", g.compute = TG_COMPUTE_S32; g.a_type = g.b_type = TG_S8; g.c_type = TG_S32;
              g.d_type = TG_F32);
  UNSUPPORTED("c_type", g.compute = TG_COMPUTE_S32; g.a_type = g.b_type = TG_S8; g.c_type = TG_F16;
              g.d_type = TG_S8);
  UNSUPPORTED("bias_type", g.epilogue = TG_EPI_BIAS_GELU; g.bias_type = TG_S8);
  /* Every combination of the table in tilegemm.h is accepted. */
  VALID(g.compute = TG_COMPUTE_TF32; g.d_type = TG_BF16);
  VALID(g.a_type = g.b_type = TG_F16; g.c_type = TG_BF16; g.d_type = TG_F32);
  VALID(g.a_type = g.b_type = TG_BF16; g.c_type = g.d_type = TG_BF16);
  VALID(g.a_type = TG_E4M3; g.b_type = TG_E5M2; g.c_type = g.d_type = TG_F16);
  VALID(g.a_type = TG_E5M2; g.b_type = TG_E5M2; g.c_type = g.d_type = TG_F32);
  VALID(g.compute = TG_COMPUTE_S32; g.a_type = g.b_type = TG_S8; g.c_type = TG_S8;
        g.d_type = TG_S32; g.epilogue = TG_EPI_BIAS_RELU; g.bias_type = TG_BF16);
  /* The first bad parameter wins: domain errors come before combinations. */
  INVALID("m", g.m = -1; g.lda = 1);
  INVALID("lda", g.a_type = TG_F16; g.lda = 1);
  INVALID("n", g.n = -1; g.a_type = (tg_dtype)99);
}

static void test_pointers(void) {
  tg_gemm g;
  base(&g);
  expect_pointer_refused(&g, NULL, buf_b, buf_c, buf_d, "A", __LINE__);
  expect_pointer_refused(&g, buf_a, NULL, buf_c, buf_d, "B", __LINE__);
  expect_pointer_refused(&g, buf_a, buf_b, buf_c, NULL, "D", __LINE__);
  g.beta = 1.0;
  expect_pointer_refused(&g, buf_a, buf_b, NULL, buf_d, "C", __LINE__);
  base(&g);
  g.epilogue = TG_EPI_BIAS_RELU;
  g.bias = NULL;
  expect_pointer_refused(&g, buf_a, buf_b, buf_c, buf_d, "bias", __LINE__);
  /* C may be NULL when beta == 0; A and B may be NULL when alpha == 0 or k == 0. */
  base(&g);
  expect_valid(&g, buf_a, buf_b, NULL, buf_d, __LINE__);
  g.alpha = 0.0;
  expect_valid(&g, NULL, NULL, NULL, buf_d, __LINE__);
  base(&g);
  g.k = 0;
  expect_valid(&g, NULL, NULL, NULL, buf_d, __LINE__);
  /* In-place C == D needs the same layout and type. */
  base(&g);
  g.beta = 1.0;
  expect_valid(&g, buf_a, buf_b, buf_d, buf_d, __LINE__);
  g.ldc = 6;
  expect_pointer_refused(&g, buf_a, buf_b, buf_d, buf_d, "C", __LINE__);
  base(&g);
  g.beta = 1.0;
  g.c_type = TG_F16;
  expect_pointer_refused(&g, buf_a, buf_b, buf_d, buf_d, "C", __LINE__);
  /* Partial overlaps with D. */
  base(&g);
  g.beta = 1.0;
  expect_pointer_refused(&g, buf_a, buf_b, buf_d + 4, buf_d, "C", __LINE__);
  expect_pointer_refused(&g, buf_d + 8, buf_b, buf_c, buf_d, "A", __LINE__);
  expect_pointer_refused(&g, buf_a, buf_d, buf_c, buf_d + 16, "B", __LINE__);
  /* Overlap with C is irrelevant when C is not read. */
  g.beta = 0.0;
  expect_valid(&g, buf_a, buf_b, buf_d + 4, buf_d, __LINE__);
}

static void test_quick_returns(void) {
  tg_gemm g;
  int64_t *dims[] = {&g.m, &g.n, &g.batch};
  for (int i = 0; i < 3; ++i) {
    base(&g);
    *dims[i] = 0;
    reset_buffers();
    /* Nothing to do: OK even on a virtual handle, even with NULL pointers. */
    CHECK(tg_check(h, &g) == TG_OK);
    CHECK(tg_matmul(h, &g, NULL, NULL, NULL, NULL, 0) == TG_OK);
    CHECK(tg_last_kernel(h)[0] == '\0');
    CHECK(buffers_untouched());
  }
  base(&g);
  g.k = 0;
  CHECK(tg_check(h, &g) == TG_OK);
  CHECK(strcmp(tg_last_kernel(h), "epilogue") == 0);
  base(&g);
  g.alpha = 0.0;
  CHECK(tg_check(h, &g) == TG_OK);
  CHECK(strcmp(tg_last_kernel(h), "epilogue") == 0);
  base(&g);
  CHECK(tg_check(h, &g) == TG_OK);
  CHECK(tg_last_kernel(h)[0] != '\0');
}

static void test_handles_and_strings(void) {
  tg_gemm g;
  base(&g);
  CHECK(tg_check(NULL, &g) == TG_ERR_INVALID_VALUE);
  CHECK(names(tg_last_error(NULL), "handle"));
  CHECK(tg_matmul(NULL, &g, buf_a, buf_b, buf_c, buf_d, 0) == TG_ERR_INVALID_VALUE);
  CHECK(tg_check(h, NULL) == TG_ERR_INVALID_VALUE);
  CHECK(names(tg_last_error(h), "g"));
  tg_handle *v = NULL;
  CHECK(tg_create_virtual(NULL, 90, 132) == TG_ERR_INVALID_VALUE);
  CHECK(tg_create_virtual(&v, 75, 132) == TG_ERR_INVALID_VALUE && v == NULL);
  CHECK(names(tg_last_error(NULL), "sm"));
  CHECK(tg_create_virtual(&v, 90, 0) == TG_ERR_INVALID_VALUE && v == NULL);
  CHECK(names(tg_last_error(NULL), "sm_count"));
  tg_destroy(NULL);
  double ref[20];
  CHECK(tg_reference(h, &g, buf_a, buf_b, NULL, NULL, NULL, 0) == TG_ERR_INVALID_VALUE);
  CHECK(names(tg_last_error(h), "ref"));
  CHECK(tg_reference(h, &g, buf_a, buf_b, NULL, ref, NULL, 0) == TG_ERR_NO_DEVICE);
  for (int s = TG_OK; s <= TG_ERR_INTERNAL; ++s) CHECK(strlen(tg_status_string((tg_status)s)) > 0);
  CHECK(strcmp(tg_status_string((tg_status)99), "unknown status") == 0);
  CHECK(strcmp(tg_dtype_name(TG_BF16), "bf16") == 0 &&
        strcmp(tg_dtype_name((tg_dtype)9), "?") == 0);
  CHECK(tg_dtype_size(TG_E4M3) == 1 && tg_dtype_size(TG_F16) == 2 && tg_dtype_size(TG_S32) == 4);
  CHECK(tg_dtype_size((tg_dtype)9) == 0);
  char version[32];
  snprintf(version, sizeof version, "%d.%d.%d", TILEGEMM_VERSION_MAJOR, TILEGEMM_VERSION_MINOR,
           TILEGEMM_VERSION_PATCH);
  CHECK(strcmp(tg_version(), version) == 0);
  tg_kernel_info info;
  CHECK(tg_kernel_count() >= 1);
  CHECK(tg_kernel_get(-1, &info) == TG_ERR_INVALID_VALUE);
  CHECK(tg_kernel_get(tg_kernel_count(), &info) == TG_ERR_INVALID_VALUE);
  CHECK(tg_kernel_get(0, &info) == TG_OK && strcmp(info.name, "ref") == 0);
  /* A success clears the message. */
  CHECK(tg_check(h, &g) == TG_OK && tg_last_error(h)[0] == '\0');
}

int main(void) {
  if (tg_create_virtual(&h, 90, 132) != TG_OK) {
    fprintf(stderr, "tg_create_virtual failed: %s\n", tg_last_error(NULL));
    return 1;
  }
  test_sizes_and_enums();
  test_leading_dimensions();
  test_batch_strides();
  test_overflow();
  test_type_combinations();
  test_pointers();
  test_quick_returns();
  test_handles_and_strings();
  tg_destroy(h);
  return tg_test_finish("test_validate");
}

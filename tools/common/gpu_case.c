/* gpu_case.c — see gpu_case.h. */
#include "gpu_case.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_ref.h"
#include "device_tools.h"
#include "host_dtype.h"
#include "problem.h"
#include "random_values.h"
#include "tolerance.h"

#define GUARD_BYTES 256 /* keeps base pointers 256-byte aligned, as cudaMalloc's */
#define GUARD_BYTE 0xC3
#define D_PADDING_BYTE 0xA5
#define POISON_BYTE 0xFF       /* NaN in every float format; -1 in s8 and s32 */
#define POISON_INT_SECOND 0x5A /* integer D's second run: an unwritten element differs from -1 */
#define ROGUE_FLOAT_BYTE 0xFF  /* NaN: if padding of A, B or C is read, results turn NaN */
#define ROGUE_INT_BYTE 0x7F    /* large integers for s8/s32 padding */

/* The images of a case: the operands, the bias, and the fp8 scales of A and B. */
enum { OP_A, OP_B, OP_C, OP_D, OP_BIAS, OP_SCALE_A, OP_SCALE_B, OP_COUNT };

typedef struct image {
  unsigned char *host; /* original bytes: guard | offset | data | guard */
  unsigned char *back; /* bytes read back after the run */
  unsigned char *dev;
  size_t bytes;
  size_t data_at; /* where the operand's element 0 sits */
  size_t guard;   /* bytes of each guard band (0 in exact-extent mode) */
  int used;
} image;

static int is_int(tg_dtype t) { return t == TG_S8 || t == TG_S32; }

static double g_worst_ratio = -1.0;

double tg_case_worst_ratio(void) { return g_worst_ratio; }

static const char *g_last_kernel = "";

const char *tg_case_last_kernel(void) { return g_last_kernel; }

unsigned long long tg_case_seed_base(void) {
  static int chosen = 0;
  static unsigned long long base = 0;
  if (!chosen) {
    const char *env = getenv("TILEGEMM_TEST_SEED");
    if (env && *env) {
      base = strtoull(env, NULL, 0);
    } else {
      struct timespec now;
      timespec_get(&now, TIME_UTC);
      base = ((unsigned long long)now.tv_sec * 1000003ull) ^ (unsigned long long)now.tv_nsec;
    }
    chosen = 1;
    printf("random inputs from seed base %llu (TILEGEMM_TEST_SEED=%llu repeats them)\n", base,
           base);
    fflush(stdout);
  }
  return base;
}

void tg_describe_case(char *buf, size_t n, const tg_gemm *g, const tg_case_options *o) {
  snprintf(buf, n,
           "m=%lld n=%lld k=%lld batch=%lld A=%s/%c lda=%lld B=%s/%c ldb=%lld C=%s D=%s/%c "
           "ldc=%lld ldd=%lld strides=%lld,%lld,%lld,%lld compute=%d alpha=%g beta=%g epi=%s "
           "bias=%s kernel=%s seed=%llu (base %llu) exact=%d offsets=%lld,%lld,%lld,%lld,%lld "
           "in-place=%d "
           "exact-extent=%d graph=%d planned=%d scale=%d fast-accum=%d",
           (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch,
           tg_dtype_name(g->a_type), g->a_order ? 'C' : 'R', (long long)g->lda,
           tg_dtype_name(g->b_type), g->b_order ? 'C' : 'R', (long long)g->ldb,
           tg_dtype_name(g->c_type), tg_dtype_name(g->d_type), g->c_order ? 'C' : 'R',
           (long long)g->ldc, (long long)g->ldd, (long long)g->batch_stride_a,
           (long long)g->batch_stride_b, (long long)g->batch_stride_c, (long long)g->batch_stride_d,
           (int)g->compute, g->alpha, g->beta, tg_epilogue_name(g->epilogue),
           tg_dtype_name(g->bias_type), g->kernel ? g->kernel : "auto", (unsigned long long)o->seed,
           tg_case_seed_base(), o->exact, (long long)o->offset[0], (long long)o->offset[1],
           (long long)o->offset[2], (long long)o->offset[3], (long long)o->offset[4], o->c_is_d,
           o->exact_extent, o->graph, o->planned, (int)g->scale_mode, g->fp8_fast_accum);
}

/* A batch stride as `verify` spells it. */
static void stride_text(char *buf, size_t n, int64_t stride) {
  if (stride == TG_BATCH_BROADCAST) snprintf(buf, n, "broadcast");
  else snprintf(buf, n, "%lld", (long long)stride);
}

void tg_case_command(char *buf, size_t n, const tg_gemm *g, const tg_case_options *o) {
  static const char *scales[] = {"none", "tensor", "rowcol", "block"};
  char scaling[48] = "";
  if (g->scale_mode != TG_SCALE_NONE || g->fp8_fast_accum)
    snprintf(scaling, sizeof scaling, " --scale %s%s",
             (unsigned)g->scale_mode < 4 ? scales[g->scale_mode] : "?",
             g->fp8_fast_accum ? " --fast-accum" : "");
  char strides[4][24];
  const int64_t s[4] = {g->batch_stride_a, g->batch_stride_b, g->batch_stride_c, g->batch_stride_d};
  for (int i = 0; i < 4; ++i) stride_text(strides[i], sizeof strides[i], s[i]);
  snprintf(buf, n,
           "TILEGEMM_TEST_SEED=%llu tilegemm verify --mnkl %lld,%lld,%lld,%lld --a-dtype %s "
           "--b-dtype %s "
           "--c-dtype %s --d-dtype %s --acc-dtype %s --a-major %c --b-major %c --c-major %c --lda "
           "%lld --ldb %lld "
           "--ldc %lld --ldd %lld --batch-stride-a %s --batch-stride-b %s --batch-stride-c %s "
           "--batch-stride-d %s "
           "--alpha %.17g --beta %.17g --epilogue %s --bias-dtype %s --kernel %s --seed %llu "
           "--pad-ld %d "
           "--offsets %lld,%lld,%lld,%lld,%lld%s%s%s%s%s%s%s",
           tg_case_seed_base(), (long long)g->m, (long long)g->n, (long long)g->k,
           (long long)g->batch, tg_dtype_name(g->a_type), tg_dtype_name(g->b_type),
           tg_dtype_name(g->c_type), tg_dtype_name(g->d_type), tg_compute_name(g->compute),
           g->a_order == TG_ROW_MAJOR ? 'k' : 'm', g->b_order == TG_ROW_MAJOR ? 'n' : 'k',
           g->c_order == TG_ROW_MAJOR ? 'n' : 'm', (long long)g->lda, (long long)g->ldb,
           (long long)g->ldc, (long long)g->ldd, strides[0], strides[1], strides[2], strides[3],
           g->alpha, g->beta, tg_epilogue_name(g->epilogue), tg_dtype_name(g->bias_type),
           g->kernel ? g->kernel : "auto", (unsigned long long)o->seed, o->pad_ld,
           (long long)o->offset[0], (long long)o->offset[1], (long long)o->offset[2],
           (long long)o->offset[3], (long long)o->offset[4], o->exact ? " --exact" : "",
           o->c_is_d ? " --in-place" : "", o->exact_extent ? " --exact-extent" : "",
           o->graph == TG_CASE_GRAPH_FIRST ? " --graph first"
           : o->graph                      ? " --graph after"
                                           : "",
           o->determinism ? "" : " --once", o->planned ? " --planned" : "", scaling);
}

static tg_case_outcome fail(char *msg, size_t n, const tg_gemm *g, const tg_case_options *o,
                            const char *fmt, ...) {
  char what[640], desc[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  tg_describe_case(desc, sizeof desc, g, o);
  snprintf(msg, n, "%s\n    case: %s", what, desc);
  return TG_CASE_FAIL;
}

/* Fills the logical elements of an operand with the case's random values. */
static void fill_logical(image *im, tg_dtype t, int64_t rows, int64_t cols, tg_order order,
                         int64_t ld, int64_t stride, int64_t batch, uint64_t seed, int exact,
                         int nan_values) {
  unsigned char *base = im->host + im->data_at;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        int64_t off = tg_element_offset(b, i, j, order, ld, stride);
        int64_t logical = (b * rows + i) * cols + j;
        if (nan_values) /* C with beta == 0: NaN (floats) or huge (integers) that must not be read */
          memset(base + off * (int64_t)tg_dtype_size(t), is_int(t) ? ROGUE_INT_BYTE : POISON_BYTE,
                 tg_dtype_size(t));
        else tg_host_store(base, off, t, tg_random_value(seed, logical, t, exact));
      }
}

/* Sets every byte of each logical element of a D-shaped image to `byte`; padding keeps its own. */
static void poison_elements(unsigned char *data, const tg_gemm *g, int64_t ld, int64_t stride,
                            size_t es, unsigned char byte) {
  for (int64_t b = 0; b < g->batch; ++b)
    for (int64_t i = 0; i < g->m; ++i)
      for (int64_t j = 0; j < g->n; ++j)
        memset(data + tg_element_offset(b, i, j, g->c_order, ld, stride) * (int64_t)es, byte, es);
}

/* An operand's image: guard | offset | span | guard, or in exact-extent mode offset | span with
 * the span's last byte the allocation's last (an empty span still gets one byte, never read). */
static int alloc_image(image *im, int64_t span_elems, size_t es, int64_t offset_elems,
                       unsigned char fill, int exact_extent) {
  im->used = 1;
  im->guard = exact_extent ? 0 : GUARD_BYTES;
  im->data_at = im->guard + (size_t)offset_elems * es;
  im->bytes = im->data_at + (size_t)span_elems * es + im->guard;
  if (im->bytes == 0) im->bytes = 1;
  im->host = (unsigned char *)malloc(im->bytes);
  im->back = (unsigned char *)malloc(im->bytes);
  if (!im->host || !im->back) return -1;
  memset(im->host, GUARD_BYTE, im->bytes);
  memset(im->host + im->guard, fill, im->bytes - 2 * im->guard);
  return cudaMalloc((void **)&im->dev, im->bytes) == cudaSuccess ? 0 : -1;
}

static void free_image(image *im) {
  free(im->host);
  free(im->back);
  if (im->dev) cudaFree(im->dev);
  memset(im, 0, sizeof *im);
}

static int upload(image *im) {
  return cudaMemcpy(im->dev, im->host, im->bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1;
}

static int download(image *im) {
  return cudaMemcpy(im->back, im->dev, im->bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}

static int64_t first_difference(const unsigned char *x, const unsigned char *y, size_t n);

/* The request through tg_matmul, or planned (tg_plan_create, tg_plan_run, tg_plan_destroy). */
static tg_status call(tg_handle *h, const tg_gemm *g, int planned, const void *a, const void *b,
                      const void *c, void *d, cudaStream_t stream) {
  if (!planned) return tg_matmul(h, g, a, b, c, d, stream);
  tg_matmul_plan *plan = NULL;
  tg_status s = tg_plan_create(h, g, &plan);
  if (s == TG_OK) s = tg_plan_run(plan, a, b, c, d, stream);
  tg_plan_destroy(plan);
  return s;
}

/* D's image restored to its original bytes (poison, or C when C is D) and settled on the
 * device before work on another stream reads it. */
static int restore(image *im) {
  return upload(im) == 0 && cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

/* The request as a CUDA graph: captured on a stream of its own, instantiated and launched
 * twice, each time into D restored to its original image; both replays' D must be the same,
 * and *out receives it (dimg->bytes). Returns 0; 1 when tg_matmul refused the request as not
 * supported or misaligned (the eager run then says so); -1 with the reason in why. */
static int run_graph(tg_handle *h, const tg_gemm *g, int planned, const void *a, const void *b,
                     const void *c, void *d, image *dimg, unsigned char *out, char *why, size_t n) {
  cudaStream_t stream = NULL;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  unsigned char *first = (unsigned char *)malloc(dimg->bytes);
  int rc = -1;
  if (!first || cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    snprintf(why, n, "graph: no stream or host memory");
    goto done;
  }
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) != cudaSuccess) {
    snprintf(why, n, "graph: cudaStreamBeginCapture failed");
    goto done;
  }
  const tg_status s = call(h, g, planned, a, b, c, d, stream);
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  if (s == TG_ERR_NOT_SUPPORTED || s == TG_ERR_MISALIGNED) {
    rc = 1;
    goto done;
  }
  if (s != TG_OK) {
    snprintf(why, n, "tg_matmul under capture returned %s: %s", tg_status_string(s),
             tg_last_error(h));
    goto done;
  }
  if (ended != cudaSuccess || cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) {
    snprintf(why, n, "graph: the capture of tg_matmul (%s) did not give a graph: %s",
             tg_last_kernel(h),
             cudaGetErrorString(ended != cudaSuccess ? ended : cudaGetLastError()));
    goto done;
  }
  for (int replay = 0; replay < 2; ++replay) {
    cudaError_t e = cudaSuccess;
    if (restore(dimg) != 0 || (e = cudaGraphLaunch(exec, stream)) != cudaSuccess ||
        (e = cudaStreamSynchronize(stream)) != cudaSuccess ||
        cudaMemcpy(replay ? out : first, dimg->dev, dimg->bytes, cudaMemcpyDeviceToHost) !=
            cudaSuccess) {
      snprintf(why, n, "graph: replay %d of %s failed: %s", replay + 1, tg_last_kernel(h),
               cudaGetErrorString(e));
      goto done;
    }
  }
  if (first_difference(first, out, dimg->bytes) >= 0) {
    snprintf(why, n, "graph: two replays of %s differ", tg_last_kernel(h));
    goto done;
  }
  rc = 0;
done:
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  if (stream) cudaStreamDestroy(stream);
  (void)cudaGetLastError();
  free(first);
  return rc;
}

/* Index of the first differing byte, or -1. */
static int64_t first_difference(const unsigned char *x, const unsigned char *y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return (int64_t)i;
  return -1;
}

static void fill_ld(int64_t *ld, tg_order order, int64_t rows, int64_t cols, int pad) {
  if (*ld == 0 && pad)
    *ld = (order == TG_ROW_MAJOR ? (cols > 1 ? cols : 1) : (rows > 1 ? rows : 1)) + pad;
}

/* 1 when environment variable `name` is "1". */
static int env_flag(const char *name) {
  const char *v = getenv(name);
  return v && strcmp(v, "1") == 0;
}

tg_case_outcome tg_run_case(tg_handle *h, const tg_gemm *g_in, const tg_case_options *o_in,
                            char *msg, size_t n) {
  tg_gemm g = *g_in;
  tg_case_options opts = *o_in;
  if (env_flag("TILEGEMM_TEST_EXACT_EXTENT")) opts.exact_extent = 1;
  const tg_case_options *o = &opts;
  image im[OP_COUNT];
  double *ref = NULL, *mag = NULL, *dref = NULL, *dmag = NULL;
  unsigned char *first_d = NULL, *graph_d = NULL;
  tg_case_outcome out = TG_CASE_FAIL;
  memset(im, 0, sizeof im);
  msg[0] = '\0';

  fill_ld(&g.lda, g.a_order, g.m, g.k, o->pad_ld);
  fill_ld(&g.ldb, g.b_order, g.k, g.n, o->pad_ld);
  fill_ld(&g.ldd, g.c_order, g.m, g.n, o->pad_ld);
  if (o->c_is_d) {
    g.ldc = g.ldd;
    g.batch_stride_c = g.batch_stride_d;
    g.c_type = g.d_type;
  } else {
    fill_ld(&g.ldc, g.c_order, g.m, g.n, o->pad_ld);
  }
  const int has_bias =
      g.epilogue == TG_EPI_BIAS || g.epilogue == TG_EPI_BIAS_RELU || g.epilogue == TG_EPI_BIAS_GELU;
  const int64_t lda = tg_resolved_ld(g.lda, g.a_order, g.m, g.k);
  const int64_t ldb = tg_resolved_ld(g.ldb, g.b_order, g.k, g.n);
  const int64_t ldc = tg_resolved_ld(g.ldc, g.c_order, g.m, g.n);
  const int64_t ldd = tg_resolved_ld(g.ldd, g.c_order, g.m, g.n);
  const int64_t sa = tg_resolved_batch_stride(g.batch_stride_a, lda, g.a_order, g.m, g.k);
  const int64_t sb = tg_resolved_batch_stride(g.batch_stride_b, ldb, g.b_order, g.k, g.n);
  const int64_t sc = tg_resolved_batch_stride(g.batch_stride_c, ldc, g.c_order, g.m, g.n);
  const int64_t sd = tg_resolved_batch_stride(g.batch_stride_d, ldd, g.c_order, g.m, g.n);
  const size_t es[OP_COUNT] = {tg_dtype_size(g.a_type),
                               tg_dtype_size(g.b_type),
                               tg_dtype_size(g.c_type),
                               tg_dtype_size(g.d_type),
                               tg_dtype_size(g.bias_type),
                               sizeof(float),
                               sizeof(float)};
  /* fp8 scales: one set per batch, or one for a broadcast operand (tilegemm.h's layouts). */
  const int scaled = g.scale_mode != TG_SCALE_NONE;
  const int64_t scale_floats_a = tg_scale_count(&g, 'a'), scale_floats_b = tg_scale_count(&g, 'b');
  const int64_t spans[OP_COUNT] = {
      tg_operand_span(g.m, g.k, g.a_order, lda, g.batch_stride_a, g.batch),
      tg_operand_span(g.k, g.n, g.b_order, ldb, g.batch_stride_b, g.batch),
      tg_operand_span(g.m, g.n, g.c_order, ldc, g.batch_stride_c, g.batch),
      tg_operand_span(g.m, g.n, g.c_order, ldd, g.batch_stride_d, g.batch),
      has_bias ? g.n : 0,
      scale_floats_a,
      scale_floats_b};
  const uint64_t seed = (o->seed + (uint64_t)tg_case_seed_base() * 0x9E3779B97F4A7C15ull) * 7919u;
  const int c_unwritten = g.beta == 0.0 && !o->c_is_d && env_flag("TILEGEMM_TEST_UNWRITTEN_C");
  const unsigned char rogue_a = is_int(g.a_type) ? ROGUE_INT_BYTE : ROGUE_FLOAT_BYTE;
  const unsigned char rogue_b = is_int(g.b_type) ? ROGUE_INT_BYTE : ROGUE_FLOAT_BYTE;
  const unsigned char rogue_c = is_int(g.c_type) ? ROGUE_INT_BYTE : ROGUE_FLOAT_BYTE;
  const unsigned char rogue_bias = is_int(g.bias_type) ? ROGUE_INT_BYTE : ROGUE_FLOAT_BYTE;

  const int xe = o->exact_extent;
  if (alloc_image(&im[OP_A], spans[OP_A], es[OP_A], o->offset[0], rogue_a, xe) ||
      alloc_image(&im[OP_B], spans[OP_B], es[OP_B], o->offset[1], rogue_b, xe) ||
      (!o->c_is_d && alloc_image(&im[OP_C], spans[OP_C], es[OP_C], o->offset[2], rogue_c, xe)) ||
      alloc_image(&im[OP_D], spans[OP_D], es[OP_D], o->offset[3], D_PADDING_BYTE, xe) ||
      alloc_image(&im[OP_BIAS], spans[OP_BIAS], es[OP_BIAS], o->offset[4], rogue_bias, xe) ||
      (scaled &&
       (alloc_image(&im[OP_SCALE_A], spans[OP_SCALE_A], es[OP_SCALE_A], 0, ROGUE_FLOAT_BYTE, xe) ||
        alloc_image(&im[OP_SCALE_B], spans[OP_SCALE_B], es[OP_SCALE_B], 0, ROGUE_FLOAT_BYTE,
                    xe)))) {
    out = fail(msg, n, &g, o, "allocation failed");
    goto done;
  }
  fill_logical(&im[OP_A], g.a_type, g.m, g.k, g.a_order, lda, sa, g.batch, seed + 1, o->exact, 0);
  fill_logical(&im[OP_B], g.b_type, g.k, g.n, g.b_order, ldb, sb, g.batch, seed + 2, o->exact, 0);
  if (has_bias)
    fill_logical(&im[OP_BIAS], g.bias_type, 1, g.n, TG_ROW_MAJOR, g.n, 0, 1, seed + 4, o->exact, 0);
  for (int i = OP_SCALE_A; scaled && i <= OP_SCALE_B; ++i)
    for (int64_t e = 0; e < spans[i]; ++e) {
      const float v = tg_scale_value(seed + 5 + (uint64_t)(i - OP_SCALE_A), e, o->exact);
      memcpy(im[i].host + im[i].data_at + (size_t)e * sizeof v, &v, sizeof v);
    }
  if (o->c_is_d) {
    /* In place: D starts as C. */
    fill_logical(&im[OP_D], g.d_type, g.m, g.n, g.c_order, ldd, sd, g.batch, seed + 3, o->exact,
                 g.beta == 0.0);
  } else {
    fill_logical(&im[OP_C], g.c_type, g.m, g.n, g.c_order, ldc, sc, g.batch, seed + 3, o->exact,
                 g.beta == 0.0);
    /* Poison every element of D; padding keeps D_PADDING_BYTE. */
    poison_elements(im[OP_D].host + im[OP_D].data_at, &g, ldd, sd, es[OP_D], POISON_BYTE);
  }
  for (int i = 0; i < OP_COUNT; ++i)
    if (im[i].used && !(i == OP_C && c_unwritten) && upload(&im[i]) != 0) {
      out = fail(msg, n, &g, o, "upload failed");
      goto done;
    }
  void *dptr = im[OP_D].dev + im[OP_D].data_at;
  const void *aptr = im[OP_A].dev + im[OP_A].data_at;
  const void *bptr = im[OP_B].dev + im[OP_B].data_at;
  const void *cptr = o->c_is_d ? dptr : (const void *)(im[OP_C].dev + im[OP_C].data_at);
  g.bias = has_bias ? im[OP_BIAS].dev + im[OP_BIAS].data_at : NULL;
  g.scale_a = scaled ? (const float *)(im[OP_SCALE_A].dev + im[OP_SCALE_A].data_at) : NULL;
  g.scale_b = scaled ? (const float *)(im[OP_SCALE_B].dev + im[OP_SCALE_B].data_at) : NULL;
  if (o->null_unread) {
    if (g.alpha == 0.0 || g.k == 0) aptr = bptr = NULL;
    if (g.beta == 0.0) cptr = NULL;
  }

  const int int_d_poisoned = is_int(g.d_type) && !o->c_is_d;
  const int runs = o->determinism || int_d_poisoned ? 2 : 1;
  if (o->graph) {
    graph_d = (unsigned char *)malloc(im[OP_D].bytes);
    if (!graph_d) {
      out = fail(msg, n, &g, o, "allocation failed");
      goto done;
    }
  }
  if (o->graph == TG_CASE_GRAPH_FIRST) {
    char why[512] = "graph: restoring D failed";
    const int rc =
        run_graph(h, &g, o->planned, aptr, bptr, cptr, dptr, &im[OP_D], graph_d, why, sizeof why);
    if (rc < 0 || restore(&im[OP_D]) != 0) {
      out = fail(msg, n, &g, o, "%s", why);
      goto done;
    }
    if (rc == 1) { /* refused: the eager run below reports it */
      free(graph_d);
      graph_d = NULL;
    }
  }
  for (int run = 0; run < runs; ++run) {
    if (run == 1 && int_d_poisoned) { /* the second poison, in the elements only */
      unsigned char *second = (unsigned char *)malloc(im[OP_D].bytes);
      if (!second) {
        out = fail(msg, n, &g, o, "allocation failed");
        goto done;
      }
      memcpy(second, im[OP_D].host, im[OP_D].bytes);
      poison_elements(second + im[OP_D].data_at, &g, ldd, sd, es[OP_D], POISON_INT_SECOND);
      const int ok =
          cudaMemcpy(im[OP_D].dev, second, im[OP_D].bytes, cudaMemcpyHostToDevice) == cudaSuccess;
      free(second);
      if (!ok) {
        out = fail(msg, n, &g, o, "upload failed");
        goto done;
      }
    } else if (run == 1 && upload(&im[OP_D]) != 0) {
      out = fail(msg, n, &g, o, "upload failed");
      goto done;
    }
    tg_status s = call(h, &g, o->planned, aptr, bptr, cptr, dptr, 0);
    g_last_kernel = tg_last_kernel(h);
    if (s != TG_OK) {
      if (o->allow_refusal && (s == TG_ERR_NOT_SUPPORTED || s == TG_ERR_MISALIGNED)) {
        out = TG_CASE_REFUSED;
        snprintf(msg, n, "%s", tg_last_error(h));
      } else {
        out =
            fail(msg, n, &g, o, "tg_matmul returned %s: %s", tg_status_string(s), tg_last_error(h));
      }
      goto done;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e != cudaSuccess) {
      out = fail(msg, n, &g, o, "CUDA error after tg_matmul (%s): %s", g_last_kernel,
                 cudaGetErrorString(e));
      goto done;
    }
    if (download(&im[OP_D]) != 0) {
      out = fail(msg, n, &g, o, "download failed");
      goto done;
    }
    if (run == 0 && runs == 2) {
      first_d = (unsigned char *)malloc(im[OP_D].bytes);
      memcpy(first_d, im[OP_D].back, im[OP_D].bytes);
    }
  }
  if (o->graph == TG_CASE_GRAPH_AFTER) {
    char why[512];
    unsigned char *eager = (unsigned char *)malloc(im[OP_D].bytes);
    int ok = eager != NULL;
    if (ok) memcpy(eager, im[OP_D].back, im[OP_D].bytes);
    ok = ok && run_graph(h, &g, o->planned, aptr, bptr, cptr, dptr, &im[OP_D], graph_d, why,
                         sizeof why) == 0; /* ran eagerly: no refusal */
    if (eager) memcpy(im[OP_D].back, eager, im[OP_D].bytes);
    free(eager);
    if (!ok) {
      out = fail(msg, n, &g, o, "%s", why);
      goto done;
    }
  }
  if (graph_d) {
    const int64_t at = first_difference(graph_d, im[OP_D].back, im[OP_D].bytes);
    if (at >= 0) {
      out = fail(msg, n, &g, o,
                 "the graph's D differs from the eager one at byte %lld from element 0 (kernel %s)",
                 (long long)at - (long long)im[OP_D].data_at, g_last_kernel);
      goto done;
    }
  }
  if (first_d) {
    const int64_t at = first_difference(first_d, im[OP_D].back, im[OP_D].bytes);
    if (at >= 0) {
      out = fail(msg, n, &g, o, "%s: two runs differ at byte %lld from element 0 (kernel %s)",
                 int_d_poisoned ? "an element of D not written, or not deterministic"
                                : "not deterministic",
                 (long long)at - (long long)im[OP_D].data_at, g_last_kernel);
      goto done;
    }
  }
  /* Inputs unchanged, guards and padding intact (b: the bias; s, t: the scales of A and B). */
  for (int i = 0; i < OP_COUNT; ++i) {
    if (!im[i].used || i == OP_D || (i == OP_C && c_unwritten)) continue;
    if (download(&im[i]) != 0) {
      out = fail(msg, n, &g, o, "download failed");
      goto done;
    }
    int64_t at = first_difference(im[i].host, im[i].back, im[i].bytes);
    if (at >= 0) {
      out = fail(msg, n, &g, o, "operand %c changed at byte %lld (kernel %s)", "ABCDbst"[i],
                 (long long)at, g_last_kernel);
      goto done;
    }
  }
  {
    /* Outside D's elements, every byte must be what it was: copy the elements over the
     * original image and compare whole images. */
    unsigned char *expect = (unsigned char *)malloc(im[OP_D].bytes);
    memcpy(expect, im[OP_D].host, im[OP_D].bytes);
    for (int64_t b = 0; b < g.batch; ++b)
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j) {
          size_t at = im[OP_D].data_at +
                      (size_t)(tg_element_offset(b, i, j, g.c_order, ldd, sd) * (int64_t)es[OP_D]);
          memcpy(expect + at, im[OP_D].back + at, es[OP_D]);
        }
    int64_t at = first_difference(expect, im[OP_D].back, im[OP_D].bytes);
    free(expect);
    if (at >= 0) {
      long long rel = (long long)at - (long long)im[OP_D].data_at;
      out = fail(msg, n, &g, o,
                 "D written outside its elements at byte %lld from element 0%s (kernel %s)", rel,
                 ((size_t)at < im[OP_D].guard || (size_t)at >= im[OP_D].bytes - im[OP_D].guard)
                     ? " (guard band)"
                     : " (padding)",
                 g_last_kernel);
      goto done;
    }
  }
  {
    const int64_t count = g.m * g.n * g.batch;
    ref = (double *)malloc((size_t)(count ? count : 1) * sizeof *ref);
    mag = (double *)malloc((size_t)(count ? count : 1) * sizeof *mag);
    if (o->gpu_oracle) {
      size_t bytes = (size_t)(count ? count : 1) * sizeof(double);
      if (cudaMalloc((void **)&dref, bytes) != cudaSuccess ||
          cudaMalloc((void **)&dmag, bytes) != cudaSuccess) {
        out = fail(msg, n, &g, o, "oracle allocation failed");
        goto done;
      }
      /* The oracle reads C as it was: re-upload when D overwrote it in place. */
      if (o->c_is_d && upload(&im[OP_D]) != 0) {
        out = fail(msg, n, &g, o, "upload failed");
        goto done;
      }
      tg_status s = tg_reference(h, &g, aptr, bptr, cptr, dref, dmag, 0);
      if (s != TG_OK || cudaMemcpy(ref, dref, bytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
          cudaMemcpy(mag, dmag, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
        out = fail(msg, n, &g, o, "oracle failed: %s", tg_last_error(h));
        goto done;
      }
    } else {
      const unsigned char *c_host =
          o->c_is_d ? im[OP_D].host + im[OP_D].data_at : im[OP_C].host + im[OP_C].data_at;
      tg_cpu_reference_scaled(
          &g, im[OP_A].host + im[OP_A].data_at, im[OP_B].host + im[OP_B].data_at, c_host,
          im[OP_BIAS].host + im[OP_BIAS].data_at,
          scaled ? (const float *)(im[OP_SCALE_A].host + im[OP_SCALE_A].data_at) : NULL,
          scaled ? (const float *)(im[OP_SCALE_B].host + im[OP_SCALE_B].data_at) : NULL, ref, mag);
    }
    tg_verify_result v;
    tg_tolerance tol = tg_tolerance_make(&g, o->exact);
    tg_verify_host(&g, im[OP_D].back + im[OP_D].data_at, ref, mag, tol, &v);
    if (v.failures) {
      int64_t idx = v.first_bad, b = idx / (g.m * g.n), r = idx % (g.m * g.n);
      double got =
          tg_host_load(im[OP_D].back + im[OP_D].data_at,
                       tg_element_offset(b, r / g.n, r % g.n, g.c_order, ldd, sd), g.d_type);
      out =
          fail(msg, n, &g, o,
               "%lld of %lld elements wrong (%lld NaN), first at batch %lld (%lld,%lld): got %.9g, "
               "expected %.9g (mag %.3g), worst error/bound %.3g (kernel %s)",
               (long long)v.failures, (long long)v.checked, (long long)v.nans, (long long)b,
               (long long)(r / g.n), (long long)(r % g.n), got, ref[idx], mag[idx], v.worst_ratio,
               g_last_kernel);
      goto done;
    }
    if (v.worst_ratio > g_worst_ratio) g_worst_ratio = v.worst_ratio;
  }
  out = TG_CASE_PASS;
done:
  for (int i = 0; i < OP_COUNT; ++i) free_image(&im[i]);
  free(ref);
  free(mag);
  free(first_d);
  free(graph_d);
  cudaFree(dref);
  cudaFree(dmag);
  return out;
}

/*
 * tilegemm.h — the public C interface of tilegemm, a GEMM library for NVIDIA GPUs.
 *
 * One call computes, for every batch index l in [0, batch):
 *
 *     D_l = act( alpha * op(A_l) * op(B_l) + beta * C_l + bias )
 *
 * where op(A) is M×K, op(B) is K×N, C and D are M×N. Every operand is row- or column-major with
 * its own leading dimension and batch stride. The header is valid C99 and C++; it needs no CUDA
 * header (a cudaStream_t converts implicitly to the stream parameter).
 *
 * Contract (docs/api.md has the long form):
 *   - beta == 0:  C is never read (NaN or Inf in C cannot reach D); C may be NULL.
 *   - alpha == 0: A and B are never read; they may be NULL.
 *   - M, N or batch == 0: nothing is launched and TG_OK is returned.
 *   - K == 0: D = act(beta * C + bias).
 *   - A bad argument returns TG_ERR_INVALID_VALUE before anything is launched or written, and
 *     tg_last_error() names the first bad parameter (BLAS style).
 *   - A valid request that no kernel on this device can serve returns TG_ERR_NOT_SUPPORTED (or
 *     TG_ERR_MISALIGNED for a forced kernel whose alignment rules are broken) with the reason.
 *   - Same inputs on the same device give bitwise-identical outputs, run after run.
 *   - Float inputs accumulate in fp32 (int8 in int32); outputs round to nearest even.
 *   - The library never prints, exits or aborts.
 */
#ifndef TILEGEMM_H
#define TILEGEMM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILEGEMM_VERSION_MAJOR 0
#define TILEGEMM_VERSION_MINOR 1
#define TILEGEMM_VERSION_PATCH 0

/** Opaque library context bound to one CUDA device (or to a virtual device, see
 *  tg_create_virtual). Not thread-safe: use one handle per host thread. Its requests share one
 *  workspace and one set of readiness flags: enqueue them on one stream at a time (work on
 *  another stream must first wait for them, e.g. through an event), or use a handle per stream. */
typedef struct tg_handle tg_handle;

/** CUDA stream type, identical to cudaStream_t; passing 0 (NULL) means the legacy default stream. */
typedef struct CUstream_st *tg_stream;

/** Result of every call that can fail. TG_OK is 0. */
typedef enum tg_status {
  TG_OK = 0,            /**< success */
  TG_ERR_INVALID_VALUE, /**< a parameter is out of its domain; tg_last_error names it */
  TG_ERR_NOT_SUPPORTED, /**< valid, but no kernel on this device serves it (reason given) */
  TG_ERR_MISALIGNED,    /**< the forced kernel needs more alignment than the operands have */
  TG_ERR_NO_DEVICE,     /**< no usable CUDA device (or the handle is virtual) */
  TG_ERR_CUDA,          /**< a CUDA runtime call failed; tg_last_error gives its message */
  TG_ERR_OUT_OF_MEMORY, /**< a workspace allocation failed */
  TG_ERR_INTERNAL       /**< a bug in tilegemm; please report it with tg_last_error's text */
} tg_status;

/** Element types. */
typedef enum tg_dtype {
  TG_F32 = 0, /**< IEEE binary32 */
  TG_F16,     /**< IEEE binary16 */
  TG_BF16,    /**< bfloat16 (8-bit exponent, 7-bit mantissa) */
  TG_E4M3,    /**< fp8 E4M3 (OCP "fn" variant: no infinities, max 448) */
  TG_E5M2,    /**< fp8 E5M2 (IEEE-like, max 57344) */
  TG_S8,      /**< int8 */
  TG_S32      /**< int32 */
} tg_dtype;
#define TG_DTYPE_COUNT 7

/** Storage order of a matrix: row-major (a row is contiguous) or column-major. */
typedef enum tg_order { TG_ROW_MAJOR = 0, TG_COL_MAJOR = 1 } tg_order;

/** Arithmetic used for the products and the accumulation. */
typedef enum tg_compute {
  TG_COMPUTE_F32 = 0, /**< fp32 accumulate; fp32 inputs multiplied in full fp32 */
  TG_COMPUTE_TF32,    /**< fp32 inputs rounded to tf32 (10-bit mantissa), fp32 accumulate */
  TG_COMPUTE_S32,     /**< int8 inputs, exact int32 accumulate */
  TG_COMPUTE_3XTF32   /**< fp32 inputs, each split into a tf32 value and a tf32 remainder; three
                           tensor-core products (hi·hi + lo·hi + hi·lo) accumulated in fp32: an
                           error close to fp32's (docs/api.md states the bound) at tf32 speed ÷ 3 */
} tg_compute;

/** Fused epilogue applied after alpha/beta scaling; bias has N elements, one per column of D. */
typedef enum tg_epilogue {
  TG_EPI_NONE = 0,
  TG_EPI_BIAS,      /**< v + bias[n] */
  TG_EPI_RELU,      /**< max(v, 0); NaN stays NaN */
  TG_EPI_GELU,      /**< tanh approximation: 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))) */
  TG_EPI_BIAS_RELU, /**< relu(v + bias[n]) */
  TG_EPI_BIAS_GELU  /**< gelu(v + bias[n]) */
} tg_epilogue;

/** How fp8 inputs are scaled (tg_gemm.scale_mode). Scales are fp32 in device memory, read when
 *  the work runs (they may change between runs without a host synchronization). With scales,
 *  element (i, j) of the product is sum_k sa(i, k) a(i, k) b(k, j) sb(k, j), where sa and sb are
 *  the scales of op(A) and op(B) that cover that element; alpha, beta, bias and the activation
 *  then apply as usual. Every batch of an operand has its own scales, stored one batch after the
 *  other (packed), except that an operand of batch stride TG_BATCH_BROADCAST has one set for all.
 *  Per batch (kb = k / TG_SCALE_BLOCK_K, KB = ceil(k / TG_SCALE_BLOCK_K)):
 *    mode      scale_a (op(A) is m×k)               scale_b (op(B) is k×n)
 *    TENSOR    1 float                              1 float
 *    ROW_COL   m floats: sa(i, k) = scale_a[i]      n floats: sb(k, j) = scale_b[j]
 *    BLOCK     KB×m: sa(i, k) = scale_a[kb·m + i]   ceil(n/128)×KB: sb(k, j) =
 *              (one per 1×128 slice of a row)       scale_b[(j/128)·KB + kb] (per 128×128 block)
 *  BLOCK is the recipe of DeepSeek-V3 (activations by 1×128 slices, weights by 128×128 blocks). */
typedef enum tg_scale_mode {
  TG_SCALE_NONE = 0, /**< no scales (scale_a, scale_b unused) */
  TG_SCALE_TENSOR,   /**< one scale per matrix */
  TG_SCALE_ROW_COL,  /**< one per row of op(A), one per column of op(B) */
  TG_SCALE_BLOCK     /**< one per 1×128 slice of op(A), one per 128×128 block of op(B) */
} tg_scale_mode;
#define TG_SCALE_BLOCK_K 128 /**< k covered by one scale of TG_SCALE_BLOCK */

/** Batch stride value meaning "every batch uses the same matrix" (A, B, C only; not D). */
#define TG_BATCH_BROADCAST (-1)

/**
 * One GEMM request. Start from tg_gemm_init() and change what differs.
 *
 * Supported type combinations (anything else is TG_ERR_NOT_SUPPORTED):
 *   compute | a_type, b_type                    | c_type, d_type (each)  | bias_type
 *   F32     | F32, F32                          | F32, F16, BF16         | F32, F16, BF16
 *   TF32    | F32, F32                          | F32, F16, BF16         | F32, F16, BF16
 *   F32     | F16, F16   or  BF16, BF16         | F32, F16, BF16         | F32, F16, BF16
 *   F32     | E4M3 or E5M2, in any pairing      | F32, F16, BF16         | F32, F16, BF16
 * fp8 inputs may carry scales (scale_mode) and choose their accumulation (fp8_fast_accum).
 *   S32     | S8, S8                            | S32, S8 (saturating)   | F32, F16, BF16
 * For S32 compute the epilogue (alpha, beta, bias, activation) runs in fp32 on the exact int32
 * accumulator, then rounds to nearest even and saturates; with alpha = 1, beta = 0 and no
 * epilogue an S32 output is the exact accumulator.
 */
typedef struct tg_gemm {
  int64_t m, n, k; /**< op(A) is m×k, op(B) is k×n, C and D are m×n; each >= 0 */
  int64_t batch;   /**< number of independent products, >= 0 */
  tg_dtype a_type, b_type, c_type, d_type;
  tg_compute compute;
  tg_order a_order, b_order, c_order; /**< D has C's order */
  int64_t lda, ldb, ldc, ldd;         /**< leading dimensions in elements; 0 = packed */
  /** Elements between consecutive batches; 0 = packed (ld × outer extent);
   *  TG_BATCH_BROADCAST = one matrix for all batches (not allowed for D). */
  int64_t batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d;
  double alpha, beta; /**< finite scalars (converted to fp32 for the products' scaling) */
  tg_epilogue epilogue;
  const void *bias; /**< device pointer to n elements of bias_type (epilogues with bias) */
  tg_dtype bias_type;
  const char *kernel;       /**< NULL or "auto" = planner's choice; else a registered kernel name */
  tg_scale_mode scale_mode; /**< fp8 inputs only; TG_SCALE_NONE otherwise (the default) */
  /** Device pointers to the fp32 scales of op(A) and op(B), 4-byte aligned, laid out as
   *  tg_scale_mode says; unused (may be NULL) when scale_mode is NONE or A and B are not read. */
  const float *scale_a, *scale_b;
  /** fp8 inputs only. 0 (default): the tensor cores' partial sums, which keep fewer bits than
   *  fp32, are added into fp32 accumulators at least every 128 of k. 1: they accumulate over all
   *  of k in the tensor cores' own format: faster, less accurate at long k. BLOCK scaling
   *  promotes every 128 of k either way. */
  int fp8_fast_accum;
} tg_gemm;

/** Fills *g with a packed, row-major, batch-1 request D = A·B of the given sizes:
 *  alpha = 1, beta = 0, no epilogue, a_type = b_type = ab_type, c_type = d_type = cd_type,
 *  compute = S32 for S8 inputs, F32 otherwise. */
void tg_gemm_init(tg_gemm *g, int64_t m, int64_t n, int64_t k, tg_dtype ab_type, tg_dtype cd_type);

/** Creates a handle bound to the current CUDA device. Returns TG_ERR_NO_DEVICE when there is
 *  none (the message says why). The handle owns a workspace it grows on demand. */
tg_status tg_create(tg_handle **handle);

/** Creates a handle for a device that need not exist: compute capability sm (e.g. 90 for H100)
 *  with sm_count multiprocessors. tg_check and kernel selection work on it with no GPU;
 *  tg_matmul and tg_reference validate their arguments, then return TG_ERR_NO_DEVICE. */
tg_status tg_create_virtual(tg_handle **handle, int sm, int sm_count);

/** Frees the handle and its workspace. NULL is ignored. Synchronizes the handle's device. */
void tg_destroy(tg_handle *handle);

/** Validates *g and finds the kernel that would serve it, assuming 16-byte-aligned, non-NULL
 *  operand pointers (as cudaMalloc returns). Launches nothing. On TG_OK, tg_last_kernel()
 *  names the kernel. tg_matmul repeats the checks with the real pointers. */
tg_status tg_check(tg_handle *handle, const tg_gemm *g);

/** How the handle would run *g, in words, into buf (at most len bytes, always terminated when
 *  len > 0; TG_EXPLAIN_BYTES holds any explanation): the request as validated, the device, the
 *  kernel the planner picks and why (named by g->kernel, the tuning cache, or the cost model),
 *  its tile, repacking and split-K, and each of the device's kernels with its modeled cost
 *  against the pick or the reason it cannot serve. Launches nothing and touches no device
 *  memory, so a virtual handle (tg_create_virtual) explains without a GPU. Returns what tg_check
 *  would; on an invalid request buf says why. `tilegemm explain` prints it. */
#define TG_EXPLAIN_BYTES 16384
tg_status tg_explain(tg_handle *handle, const tg_gemm *g, char *buf, size_t len);

/** Computes the request on `stream` (asynchronously: the call returns after the launch).
 *  A, B, C, D are device pointers to the element at (row 0, col 0) of batch 0. C may equal D
 *  (same leading dimension, batch stride and type); other overlaps with D are rejected. */
tg_status tg_matmul(tg_handle *handle, const tg_gemm *g, const void *A, const void *B,
                    const void *C, void *D, tg_stream stream);

/* ---- Planned requests ---------------------------------------------------------------------
 *
 * A plan does once what every tg_matmul does again and what does not depend on the operand
 * pointers: it validates the request, chooses the kernel (and any repacking), sizes the handle's
 * workspace and, where the kernel can, prepares its launch (TMA tensor maps encoded, grid and
 * scheduling worked out). A run then checks the operand pointers, points the prepared launch at
 * them and launches. Runs may be captured into CUDA graphs (the workspace already exists, so a
 * run allocates nothing) and give the same bits as tg_matmul on the same request.
 */

/** A request planned on a handle; it uses the handle's workspace, so the handle outlives it and
 *  its runs follow the handle's rules (one stream at a time). */
typedef struct tg_matmul_plan tg_matmul_plan;

/** Validates *g (as tg_matmul does, without pointers), chooses how to run it, as tg_check would
 *  for 16-byte-aligned operands, makes sure the handle's workspace holds what a run needs, and
 *  prepares the kernel's launch on the handle's device. *g is copied, with the name in
 *  g->kernel; g->bias, g->scale_a and g->scale_b are kept and used by every run. */
tg_status tg_plan_create(tg_handle *handle, const tg_gemm *g, tg_matmul_plan **plan);

/** Runs the plan on A, B, C, D (as tg_matmul's) on `stream`. Pointers are checked as tg_matmul
 *  checks them; operands whose alignment differs from the plan's (made for 16-byte-aligned
 *  pointers with g's leading dimensions and batch strides) are planned anew for this run, which
 *  costs what a tg_matmul costs. Not thread-safe (a run updates the plan's prepared launch), like the handle. Errors go
 *  to the plan's handle (tg_last_error). */
tg_status tg_plan_run(tg_matmul_plan *plan, const void *A, const void *B, const void *C, void *D,
                      tg_stream stream);

/** The kernel the plan runs for 16-byte-aligned operands ("" when there is nothing to compute,
 *  "epilogue" when only the epilogue runs). */
const char *tg_plan_kernel(const tg_matmul_plan *plan);

/** Frees the plan (NULL is ignored); the handle and its workspace stay. */
void tg_plan_destroy(tg_matmul_plan *plan);

/** The fp64 oracle used by the tests and `tilegemm bench`: computes on the GPU, in fp64 from
 *  the stored inputs, ref = act(alpha*A*B + beta*C + bias) before rounding to d_type, and
 *  mag = |alpha|*sum_k |a||b| + |beta|*|c| + |bias| (the scale of the error bound). Both are
 *  row-major m×n per batch, packed, batch after batch. mag may be NULL. The ld, type and kernel
 *  fields of *g are honoured except `kernel` and d_type/ldd/batch_stride_d (no D is written). */
tg_status tg_reference(tg_handle *handle, const tg_gemm *g, const void *A, const void *B,
                       const void *C, double *ref, double *mag, tg_stream stream);

/* ---- Tuning and the planner's cache (docs/tuning.md) ---------------------------------------
 *
 * The planner chooses a kernel in this order: the kernel named in tg_gemm.kernel; else the
 * handle's tuning cache (what tg_tune measured fastest on this device for the same types,
 * canonical layouts and alignment class, at this exact shape or the nearest shape bucket);
 * else its heuristic (a cost model fitted to measured sweeps). tg_create loads the default
 * cache file; tg_cache_save writes it. The file is plain text, one entry per line.
 */

/** Most candidates a tg_tune_result lists. */
#define TG_TUNE_MAX_CANDIDATES 64

/** How tg_tune measures. Start from tg_tune_options_init(). */
typedef struct tg_tune_options {
  int warmup;     /**< untimed runs of each candidate before its timed runs, >= 0 (default 3) */
  int iterations; /**< timed runs of each candidate, >= 1; the median is kept (default 20) */
  int flush_l2;   /**< 1 (default): before every timed run, overwrite a device buffer of twice
                        the L2 size, so that no run finds its operands in L2 (cold L2);
                        0: back-to-back runs (warm L2) */
} tg_tune_options;

/** One kernel tg_tune considered. */
typedef struct tg_tune_candidate {
  const char *kernel; /**< registry name (static string) */
  tg_status status;   /**< TG_OK: timed; TG_ERR_INTERNAL: it was the fastest but failed the
                            check against tg_reference (a bug: please report it); other: its
                            launch failed */
  double us;          /**< median time in microseconds (0 when not timed) */
  double estimate;    /**< the heuristic's cost estimate for it, in arbitrary units: comparing
                            estimate and us over many shapes is how the heuristic is refitted */
} tg_tune_candidate;

/** What tg_tune found. */
typedef struct tg_tune_result {
  const char *kernel;           /**< the winner, now in the handle's cache */
  double us;                    /**< its median time in microseconds */
  double worst_ratio;           /**< its largest error/bound against tg_reference (<= 1) */
  const char *heuristic_kernel; /**< what the planner chooses for *g without the cache */
  double heuristic_us;          /**< that kernel's median time in microseconds */
  int candidate_count;          /**< entries of candidates[] (at most TG_TUNE_MAX_CANDIDATES) */
  tg_tune_candidate candidates[TG_TUNE_MAX_CANDIDATES]; /**< in registry order */
} tg_tune_result;

/** Fills *options with the defaults: warmup 3, iterations 20, flush_l2 1. */
void tg_tune_options_init(tg_tune_options *options);

/**
 * Measures every registered kernel that can serve *g on the handle's device — except the
 * reference kernel `ref` and the teaching rungs 1-12 of the ladder — on the caller's buffers,
 * with `options` (NULL = defaults): warm-up, then the median of the timed runs, each timed
 * with CUDA events on `stream`. The fastest is verified against tg_reference with the error
 * bound of the tests (a kernel that fails is dropped and the next fastest verified), recorded
 * in the handle's cache — tg_check and tg_matmul use it from then on, for this shape and its
 * neighbours — and described in *result. tg_cache_save makes it permanent.
 *
 * The arguments are those of tg_matmul (g->kernel is ignored). D is overwritten many times and
 * holds the winner's result at the end; when C is D (beta != 0) the runs accumulate into it,
 * so its final contents are unspecified. Synchronous: returns when the work on `stream` is
 * done. Device scratch, freed before returning: the L2 flush buffer (2 × L2), the oracle's
 * output for a band of rows at a time (at most 256 MiB), and a copy of C when C is D.
 * Returns TG_ERR_NOT_SUPPORTED when no tunable kernel serves the request (or the product
 * vanishes: m, n, k, batch or alpha is 0), TG_ERR_NO_DEVICE on a virtual handle,
 * TG_ERR_INTERNAL when every candidate failed its check.
 */
tg_status tg_tune(tg_handle *handle, const tg_gemm *g, const void *A, const void *B, const void *C,
                  void *D, tg_stream stream, const tg_tune_options *options,
                  tg_tune_result *result);

/**
 * Replaces the handle's cache with the entries of a cache file. path NULL = the default file
 * (tg_cache_default_path). A file that does not exist, and a NULL path when there is no
 * default file, give an empty cache. The file's contents never make it fail: lines that are
 * corrupt, of another format version, or name a kernel this build does not have (or one the
 * cache may not name) are ignored, and entries measured on another device, SM count or CUDA
 * version are kept (tg_cache_save writes them back) but not used; each case adds a line to
 * tg_cache_warnings(). Returns TG_ERR_INVALID_VALUE (naming 'path' and the system's reason)
 * when an existing file cannot be read.
 */
tg_status tg_cache_load(tg_handle *handle, const char *path);

/** Writes the handle's cache (every entry, other devices' too) to path (NULL = the default
 *  file), creating missing directories, through a temporary file renamed over the old one.
 *  TG_ERR_NOT_SUPPORTED when path is NULL and there is no default file; TG_ERR_INVALID_VALUE
 *  (message naming 'path' and the system's reason) when it cannot be written. */
tg_status tg_cache_save(tg_handle *handle, const char *path);

/** Records `kernel` as the best choice for requests like *g on the handle's device, measured
 *  at `us` microseconds (finite, > 0; informational) — what tg_tune does after measuring, for
 *  tools that measure by other means, and for tests on virtual handles. Operand alignment is
 *  taken as tg_check assumes it (16-byte pointers); g->kernel is ignored. The kernel must be
 *  tunable (not `ref`, not a teaching rung) and serve *g: otherwise TG_ERR_INVALID_VALUE or
 *  the status of tg_check with the kernel forced. An entry for the same class and shape is
 *  replaced. */
tg_status tg_cache_add(tg_handle *handle, const tg_gemm *g, const char *kernel, double us);

/** Number of entries in the handle's cache that apply to its device (0 for NULL). */
int tg_cache_count(const tg_handle *handle);

/** The warnings of the handle's last cache load (by tg_cache_load or tg_create): one line per
 *  ignored line of the file, "line N: ignored: reason"; "" when there were none. */
const char *tg_cache_warnings(const tg_handle *handle);

/** Writes the default cache file's path into buf (len bytes): $TILEGEMM_CACHE when set, else
 *  $XDG_CACHE_HOME/tilegemm/tune.txt (absolute XDG_CACHE_HOME), else
 *  $HOME/.cache/tilegemm/tune.txt. TG_ERR_NOT_SUPPORTED when there is none (TILEGEMM_CACHE set
 *  but empty turns the default file off, or no HOME); TG_ERR_INVALID_VALUE when buf is NULL or
 *  too short. tg_last_error(NULL) says why. */
tg_status tg_cache_default_path(char *buf, size_t len);

/** Short English text for a status code (never NULL). */
const char *tg_status_string(tg_status status);

/** Detail of the handle's last failure ("" after a success). With a NULL handle: the last
 *  failure of a call that was given a NULL handle or failed to create one, in this thread. */
const char *tg_last_error(const tg_handle *handle);

/** Name of the kernel chosen by the handle's last successful tg_check or tg_matmul ("" if none;
 *  "epilogue" when K == 0 or alpha == 0 made the product vanish). */
const char *tg_last_kernel(const tg_handle *handle);

/** Lower-case name of a dtype ("f32", "bf16", "e4m3", ...), or "?" for an unknown value. */
const char *tg_dtype_name(tg_dtype dtype);

/** Lower-case name of a compute mode ("f32", "tf32", "s32", "3xtf32"), or "?" for an unknown
 *  value. */
const char *tg_compute_name(tg_compute compute);

/** Name of an epilogue as the `tilegemm` command spells it ("none", "bias", "relu", "gelu",
 *  "bias-relu", "bias-gelu"), or "?" for an unknown value. */
const char *tg_epilogue_name(tg_epilogue epilogue);

/** Bytes per element of a dtype, 0 for an unknown value. */
size_t tg_dtype_size(tg_dtype dtype);

/** Description of one registered kernel, for listings and tools. */
typedef struct tg_kernel_info {
  const char *name;           /**< what `kernel` in tg_gemm accepts */
  const char *family;         /**< "ref", "simt", "f32", "sm80", "sm90" */
  const char *summary;        /**< one line: what it is and what it accepts */
  int sm_min, sm_max;         /**< compute capabilities it runs on (major*10 + minor) */
  int rung;                   /**< its step in the teaching ladder, 0 if it is not a rung */
  int auto_pick;              /**< 1 if the planner may choose it without being asked */
  int tile_m, tile_n, tile_k; /**< CTA tile (0 where it has none) */
} tg_kernel_info;

/** Number of registered kernels. */
int tg_kernel_count(void);

/** Fills *info for kernel index i in [0, tg_kernel_count()). */
tg_status tg_kernel_get(int i, tg_kernel_info *info);

/** "major.minor.patch" of the library. */
const char *tg_version(void);

#ifdef __cplusplus
}
#endif

#endif /* TILEGEMM_H */

/*
 * test_gpu_decode.c — the decode family (kernels/decode) forced onto the requests it is built
 * for, through the public API against the oracles: every row at 1, an odd count and its full
 * count of tokens; the tokens as m and as n, with D row- and column-major (the weights as the
 * canonical B, then A); weight rows that end inside a 16-row tile; k below one warp step, odd k
 * (the last vector of a row read element by element) with leading dimensions that keep the
 * operands aligned, k split across CTAs (few rows, long k), and a B that must be repacked;
 * batches; every D type, C read with beta, bias and activations; exact data bitwise; each case
 * twice for determinism, some captured in a graph and some through a plan. None may be refused.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "tilegemm.h"

/* Above this many multiply-adds the GPU oracle replaces the CPU one. */
#define CPU_ORACLE_MAX_MACS 4000000.0
#define MAX_REPORTED_FAILURES 20

typedef struct row {
  const char *name;
  int tokens; /* the most it serves */
} row;

static const row k_rows[] = {{"decode_t8_w16", 8}};
#define ROW_COUNT ((int)(sizeof k_rows / sizeof k_rows[0]))

/* Weight rows and k: inside one tile, odd k (aligned through a padded ld), k split across CTAs
 * (two CTAs of rows on the whole GPU), and many rows. */
typedef struct shape {
  int64_t rows, k, pad_ld;
} shape;
static const shape k_shapes[] = {{17, 7, 1},    {33, 264, 0},    {40, 1031, 1},
                                 {17, 5003, 5}, {1000, 4096, 0}, {3, 9, 7}};
#define SHAPE_COUNT ((int)(sizeof k_shapes / sizeof k_shapes[0]))

static const tg_dtype k_types[] = {TG_BF16, TG_F16};
static const tg_dtype k_outs[] = {TG_BF16, TG_F32, TG_F16};
static const tg_epilogue k_epilogues[] = {TG_EPI_NONE, TG_EPI_BIAS_GELU, TG_EPI_RELU, TG_EPI_BIAS};

int main(void) {
  tg_test_require_gpu("test_gpu_decode");
  tg_handle *h;
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  long cases = 0, reported = 0;
  char msg[2048];
  for (int r = 0; r < ROW_COUNT; ++r) {
    const int full = k_rows[r].tokens;
    const int token_counts[] = {1, full / 2 + 1, full};
    for (int ti = 0; ti < 3; ++ti)
      for (int si = 0; si < SHAPE_COUNT; ++si)
        for (int frame = 0; frame < 4; ++frame) {
          const shape *s = &k_shapes[si];
          const long idx = cases;
          const int tokens_as_n = frame & 1, d_col = (frame >> 1) & 1;
          const int64_t tokens = token_counts[ti];
          tg_gemm g;
          tg_gemm_init(&g, tokens_as_n ? s->rows : tokens, tokens_as_n ? tokens : s->rows, s->k,
                       k_types[idx % 2], k_outs[idx % 3]);
          g.c_type = k_outs[(idx / 3) % 3];
          g.c_order = d_col ? TG_COL_MAJOR : TG_ROW_MAJOR;
          /* K-major operands in the user's frame, which stay K-major in the canonical one; every
           * seventh case a row-major B, which the planner repacks. */
          g.a_order = TG_ROW_MAJOR;
          g.b_order = idx % 7 == 3 ? TG_ROW_MAJOR : TG_COL_MAJOR;
          g.batch = si % 3 == 1 ? 3 : 1;
          g.kernel = k_rows[r].name;
          tg_case_options o;
          memset(&o, 0, sizeof o);
          o.seed = (uint64_t)(700000 + idx);
          o.pad_ld = (int)s->pad_ld;
          o.determinism = 1;
          o.exact = idx % 5 == 0;
          if (!o.exact) {
            g.alpha = 0.75;
            g.beta = idx % 2 ? 0.5 : 0.0;
            g.epilogue = k_epilogues[idx % 4];
          }
          if (idx % 11 == 0) o.graph = TG_CASE_GRAPH_AFTER;
          else if (idx % 11 == 5) o.planned = 1;
          if ((double)g.m * g.n * g.k * g.batch > CPU_ORACLE_MAX_MACS) o.gpu_oracle = 1;
          const tg_case_outcome out = tg_run_case(h, &g, &o, msg, sizeof msg);
          ++cases;
          CHECK(out == TG_CASE_PASS);
          if (out != TG_CASE_PASS && reported++ < MAX_REPORTED_FAILURES)
            fprintf(stderr, "FAIL [%s #%ld] %s%s\n", k_rows[r].name, idx,
                    out == TG_CASE_REFUSED ? "refused: " : "", msg);
        }
  }
  printf("decode: %ld cases\n", cases);
  tg_destroy(h);
  return tg_test_finish("test_gpu_decode");
}

/*
 * test_ladder_rows.c — the registry rows of the kernel ladder (rungs 1-12), checked on a
 * virtual H100 with no GPU: each rung accepts its own request (with odd leading dimensions,
 * and in the column-major-D form), refuses what its row does not declare (other inputs, other
 * layouts, grids past 65535 row tiles or batches) with a reason, and the planner never picks a
 * rung on its own.
 */
#include <string.h>

#include "check.h"
#include "tilegemm.h"

static tg_handle *h;

static int is_rung(const char *name, int *rung) {
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    tg_kernel_get(i, &k);
    if (strcmp(k.name, name) == 0) {
      *rung = k.rung;
      return 1;
    }
  }
  return 0;
}

/* The native request of a rung: f32 C = A·B (both row-major), or 16-bit C = A·Bᵀ (K-major). */
static void native(tg_gemm *g, int rung, int64_t m, int64_t n, int64_t k) {
  const tg_dtype t = rung <= 8 ? TG_F32 : TG_BF16;
  tg_gemm_init(g, m, n, k, t, t);
  g->b_order = rung <= 8 ? TG_ROW_MAJOR : TG_COL_MAJOR;
}

static tg_status check_forced(tg_gemm *g, const char *name) {
  g->kernel = name;
  return tg_check(h, g);
}

static void test_rung(const tg_kernel_info *k) {
  tg_gemm g;
  const int simt = k->rung <= 8;
  CHECK_MSG(k->auto_pick == 0, "%s: ladder rungs are never picked automatically", k->name);
  CHECK_MSG(strcmp(k->family, simt ? "simt" : "ladder") == 0, "%s in family %s", k->name,
            k->family);
  CHECK_MSG(k->tile_m > 0 && k->tile_n > 0 && k->tile_k > 0, "%s has no tile", k->name);

  /* Its own request, with every edge odd, batch, epilogue and beta. */
  native(&g, k->rung, 37, 41, 29);
  g.batch = 3;
  g.beta = 0.5;
  g.epilogue = TG_EPI_BIAS_GELU;
  g.lda = 32;
  g.ldb = simt ? 44 : 32;
  tg_status s = check_forced(&g, k->name);
  CHECK_MSG(s == TG_OK, "%s refuses its own request: %s", k->name, tg_last_error(h));
  /* The same with D column-major: computed as D^T = B^T A^T, which keeps the rung's layout. */
  native(&g, k->rung, 64, 48, 40);
  g.a_order = simt ? TG_COL_MAJOR : TG_ROW_MAJOR;
  g.b_order = simt ? TG_COL_MAJOR : TG_COL_MAJOR;
  g.c_order = TG_COL_MAJOR;
  s = check_forced(&g, k->name);
  CHECK_MSG(s == TG_OK, "%s refuses column-major D: %s", k->name, tg_last_error(h));
  /* Outputs: every float type. */
  const tg_dtype outs[] = {TG_F32, TG_F16, TG_BF16};
  for (int o = 0; o < 3; ++o) {
    native(&g, k->rung, 64, 64, 64);
    g.c_type = g.d_type = outs[o];
    g.beta = 1.0;
    CHECK_MSG(check_forced(&g, k->name) == TG_OK, "%s refuses d_type %s: %s", k->name,
              tg_dtype_name(outs[o]), tg_last_error(h));
  }
  /* f16 works on the 16-bit rungs too; the other family's inputs are refused. */
  tg_gemm_init(&g, 64, 64, 64, simt ? TG_BF16 : TG_F32, simt ? TG_BF16 : TG_F32);
  g.b_order = simt ? TG_COL_MAJOR : TG_ROW_MAJOR;
  CHECK_MSG(check_forced(&g, k->name) == TG_ERR_NOT_SUPPORTED, "%s takes the wrong inputs",
            k->name);
  if (!simt) {
    native(&g, k->rung, 64, 64, 64);
    g.a_type = g.b_type = g.c_type = g.d_type = TG_F16;
    CHECK_MSG(check_forced(&g, k->name) == TG_OK, "%s refuses f16: %s", k->name, tg_last_error(h));
  }
  /* tf32 compute is not what the simt rungs do. */
  if (simt) {
    native(&g, k->rung, 64, 64, 64);
    g.compute = TG_COMPUTE_TF32;
    CHECK_MSG(check_forced(&g, k->name) == TG_ERR_NOT_SUPPORTED, "%s takes tf32", k->name);
  }
  /* The other B layout is refused, with a reason naming the layout. */
  native(&g, k->rung, 64, 64, 64);
  g.b_order = simt ? TG_COL_MAJOR : TG_ROW_MAJOR;
  CHECK_MSG(check_forced(&g, k->name) == TG_ERR_NOT_SUPPORTED, "%s takes the other B layout",
            k->name);
  CHECK_MSG(strstr(tg_last_error(h), "layout") != NULL, "%s: %s", k->name, tg_last_error(h));
  /* Alignment: odd leading dimensions run everywhere (vector rungs fall back to narrow loads). */
  native(&g, k->rung, 64, 64, 64);
  g.lda = 65;
  g.ldb = 67;
  s = check_forced(&g, k->name);
  CHECK_MSG(s == TG_OK, "%s refuses odd lda/ldb: %s", k->name, tg_last_error(h));
  /* Odd C/D leading dimensions are always fine. */
  native(&g, k->rung, 64, 64, 64);
  g.beta = 1.0;
  g.ldc = 67;
  g.ldd = 69;
  CHECK_MSG(check_forced(&g, k->name) == TG_OK, "%s refuses odd ldc/ldd: %s", k->name,
            tg_last_error(h));
  /* The grid: up to 65535 row tiles and 65535 batches. */
  native(&g, k->rung, (int64_t)k->tile_m * 65535, 8, 8);
  CHECK_MSG(check_forced(&g, k->name) == TG_OK, "%s refuses 65535 row tiles: %s", k->name,
            tg_last_error(h));
  native(&g, k->rung, (int64_t)k->tile_m * 65535 + 1, 8, 8);
  CHECK_MSG(check_forced(&g, k->name) == TG_ERR_NOT_SUPPORTED, "%s takes 65536 row tiles", k->name);
  CHECK_MSG(strstr(tg_last_error(h), "65535") != NULL, "%s: %s", k->name, tg_last_error(h));
  native(&g, k->rung, 8, 8, 8);
  g.batch = 65536;
  CHECK_MSG(check_forced(&g, k->name) == TG_ERR_NOT_SUPPORTED, "%s takes 65536 batches", k->name);
}

/* The planner picks no teaching rung (1..12), for the ladder's own requests either; the
 * production kernels that stand as the ladder's top rungs (13 and up) it may. */
static void test_never_auto(void) {
  const int64_t sizes[] = {1, 37, 256, 4096};
  for (int rung = 1; rung <= 12; rung += 11)
    for (int s = 0; s < 4; ++s) {
      tg_gemm g;
      native(&g, rung, sizes[s], sizes[s], sizes[s]);
      CHECK(tg_check(h, &g) == TG_OK);
      int r = 0;
      CHECK_MSG(!is_rung(tg_last_kernel(h), &r) || r == 0 || r > 12,
                "the planner chose rung %d (%s)", r, tg_last_kernel(h));
    }
}

int main(void) {
  if (tg_create_virtual(&h, 90, 132) != TG_OK) {
    fprintf(stderr, "tg_create_virtual failed: %s\n", tg_last_error(NULL));
    return 1;
  }
  int seen = 0;
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    tg_kernel_get(i, &k);
    if (k.rung < 1 || k.rung > 12) continue;
    ++seen;
    test_rung(&k);
  }
  CHECK_MSG(seen == 12, "%d ladder rungs 1-12 registered, expected 12", seen);
  test_never_auto();
  tg_destroy(h);
  return tg_test_finish("test_ladder_rows");
}

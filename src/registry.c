/*
 * registry.c — the table of every kernel tilegemm has, and the generic test of a row against
 * a problem. Rows are data; a family adds a kernel by adding a row here and its launcher.
 */
#include "registry.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Largest m, n, k or batch any kernel indexes with 32-bit grid/tile counters. */
#define TG_MAX_DIM (0x7fffffffLL - 0xffffLL)

/* The families, in listing order: declarations and TG_FAMILY_TABLE, generated at configure
 * time from each family's sources.cmake. */
#include "tg_families.inc"

typedef struct family_rows {
  const tg_kernel *rows;
  const int *count;
} family_rows;

static const family_rows g_families[] = {TG_FAMILY_TABLE};
#define FAMILY_COUNT ((int)(sizeof g_families / sizeof g_families[0]))

int tg_registry_count(void) {
  int n = 0;
  for (int f = 0; f < FAMILY_COUNT; ++f) n += *g_families[f].count;
  return n;
}

const tg_kernel *tg_registry_at(int i) {
  if (i < 0) return NULL;
  for (int f = 0; f < FAMILY_COUNT; ++f) {
    if (i < *g_families[f].count) return &g_families[f].rows[i];
    i -= *g_families[f].count;
  }
  return NULL;
}

const tg_kernel *tg_registry_find(const char *name) {
  for (int i = 0, n = tg_registry_count(); i < n; ++i)
    if (strcmp(tg_registry_at(i)->name, name) == 0) return tg_registry_at(i);
  return NULL;
}

static const char *order_name(tg_order o) { return o == TG_ROW_MAJOR ? "row" : "col"; }

/* Writes the reason a row cannot serve a problem, unless the caller wants none (n == 0): the
 * planner tries every row on every call and discards the rejected rows' reasons, and
 * formatting them was a third of its time. */
static void reason(char *why, size_t n, const char *fmt, ...) {
  if (n == 0) return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(why, n, fmt, args);
  va_end(args);
}

tg_status tg_kernel_can_serve(const tg_kernel *k, const tg_problem *p, char *why, size_t n) {
  if (p->sm < k->sm_min || p->sm > k->sm_max) {
    reason(why, n, "kernel '%s' runs on sm_%d..sm_%d; this device is sm_%d", k->name, k->sm_min,
           k->sm_max, p->sm);
    return TG_ERR_NOT_SUPPORTED;
  }
  if (!(k->inputs & TG_MASK(p->input))) {
    reason(why, n, "kernel '%s' does not take %s inputs", k->name, tg_input_name(p->input));
    return TG_ERR_NOT_SUPPORTED;
  }
  if (!(k->outputs & TG_MASK(p->d_type))) {
    reason(why, n, "kernel '%s' does not write d_type %s", k->name, tg_dtype_name(p->d_type));
    return TG_ERR_NOT_SUPPORTED;
  }
  if (k->c_same_as_d && p->read_c && p->c_type != p->d_type) {
    reason(why, n, "kernel '%s' needs c_type == d_type when beta != 0", k->name);
    return TG_ERR_NOT_SUPPORTED;
  }
  if (!(k->a_orders & TG_MASK(p->a_order)) || !(k->b_orders & TG_MASK(p->b_order))) {
    reason(why, n,
           "kernel '%s' does not take this layout (as computed: A %s-major, B %s-major, D "
           "row-major%s)",
           k->name, order_name(p->a_order), order_name(p->b_order),
           p->transposed ? ", from D^T = B^T A^T" : "");
    return TG_ERR_NOT_SUPPORTED;
  }
  if (p->m > TG_MAX_DIM || p->n > TG_MAX_DIM || p->k > TG_MAX_DIM || p->batch > TG_MAX_DIM) {
    reason(why, n, "kernel '%s' takes m, n, k and batch up to 2^31 - 2^16", k->name);
    return TG_ERR_NOT_SUPPORTED;
  }
  if (p->align_a < k->align_ab || p->align_b < k->align_ab) {
    reason(why, n,
           "kernel '%s' needs A and B pointers, leading dimensions and batch strides aligned "
           "to %d bytes (they are %d and %d)",
           k->name, k->align_ab, p->align_a, p->align_b);
    return TG_ERR_MISALIGNED;
  }
  if ((p->read_c && p->align_c < k->align_cd) || p->align_d < k->align_cd) {
    reason(why, n,
           "kernel '%s' needs C and D pointers, leading dimensions and batch strides aligned "
           "to %d bytes (they are %d and %d)",
           k->name, k->align_cd, p->read_c ? p->align_c : 16, p->align_d);
    return TG_ERR_MISALIGNED;
  }
  if (k->extra_check) return k->extra_check(p, why, n);
  return TG_OK;
}

int tg_kernel_count(void) { return tg_registry_count(); }

tg_status tg_kernel_get(int i, tg_kernel_info *info) {
  const tg_kernel *k = tg_registry_at(i);
  if (!k || !info) return TG_ERR_INVALID_VALUE;
  info->name = k->name;
  info->family = k->family;
  info->summary = k->summary;
  info->sm_min = k->sm_min;
  info->sm_max = k->sm_max;
  info->rung = k->rung;
  info->auto_pick = k->auto_pick;
  info->tile_m = k->tile_m;
  info->tile_n = k->tile_n;
  info->tile_k = k->tile_k;
  return TG_OK;
}

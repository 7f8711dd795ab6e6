/*
 * registry.h — the one table of kernels, and the generic test of whether a row can serve a
 * problem. Pure C: the planner and `tilegemm list` use it without touching the GPU.
 *
 * Each family keeps its rows in its own file (kernels/<family>/<family>_rows.c) as
 *   const tg_kernel tg_rows_<family>[]; const int tg_rows_<family>_count;
 * and registry.c lists the families, in listing order.
 */
#ifndef TG_REGISTRY_H
#define TG_REGISTRY_H

#include <stddef.h>
#include "kernel.h"

/* Number of rows over all families. */
int tg_registry_count(void);

/* Row i in [0, tg_registry_count()), or NULL. */
const tg_kernel *tg_registry_at(int i);

/* The row with this name, or NULL. */
const tg_kernel *tg_registry_find(const char *name);

/* TG_OK when row k can serve p; otherwise NOT_SUPPORTED or MISALIGNED and a reason in why
 * (none when why_len is 0, why may then be NULL). */
tg_status tg_kernel_can_serve(const tg_kernel *k, const tg_problem *p, char *why, size_t why_len);

#endif /* TG_REGISTRY_H */

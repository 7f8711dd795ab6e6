/*
 * decode.h — the entry points of the decode family's rows (decode_configs.h): launcher, split
 * count, workspace, waves and the check of the tokens' count.
 */
#ifndef TG_DECODE_H
#define TG_DECODE_H

#include <stddef.h>

#include "decode_configs.h"
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TG_DECODE_DECLARE(fn, name, summary, RT, TT, AHEAD, CTAS)                   \
  tg_status tg_decode_launch_##fn(const tg_problem *p, struct CUstream_st *stream); \
  int tg_decode_splits_##fn(const tg_problem *p);                                   \
  size_t tg_decode_workspace_##fn(const tg_problem *p);                             \
  double tg_decode_waves_##fn(const tg_problem *p);                                 \
  tg_status tg_decode_check_##fn(const tg_problem *p, char *why, size_t why_len);
TG_DECODE_ROWS(TG_DECODE_DECLARE)
#undef TG_DECODE_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* TG_DECODE_H */

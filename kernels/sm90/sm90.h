/*
 * sm90.h — launchers of the sm90 (TMA + wgmma) family, one per registry row.
 */
#ifndef TG_SM90_H
#define TG_SM90_H

#include <stddef.h>
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

tg_status tg_sm90_launch_128x256(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x256(const tg_problem *p);
double tg_sm90_waves_128x256(const tg_problem *p);
tg_status tg_sm90_launch_128x256_c1(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x256_c1(const tg_problem *p);
double tg_sm90_waves_128x256_c1(const tg_problem *p);
tg_status tg_sm90_launch_256x128(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_256x128(const tg_problem *p);
double tg_sm90_waves_256x128(const tg_problem *p);
tg_status tg_sm90_launch_128x128(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x128(const tg_problem *p);
double tg_sm90_waves_128x128(const tg_problem *p);
tg_status tg_sm90_launch_128x64(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x64(const tg_problem *p);
double tg_sm90_waves_128x64(const tg_problem *p);
tg_status tg_sm90_launch_128x192(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x192(const tg_problem *p);
double tg_sm90_waves_128x192(const tg_problem *p);
tg_status tg_sm90_launch_128x144(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x144(const tg_problem *p);
double tg_sm90_waves_128x144(const tg_problem *p);
tg_status tg_sm90_launch_128x208(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_128x208(const tg_problem *p);
double tg_sm90_waves_128x208(const tg_problem *p);
tg_status tg_sm90_launch_pp_128x128(const tg_problem *p, struct CUstream_st *stream);
size_t tg_sm90_workspace_pp_128x128(const tg_problem *p);
double tg_sm90_waves_pp_128x128(const tg_problem *p);

/* TMA limits beyond the row's data: strides below 2^40 bytes. */
tg_status tg_sm90_check(const tg_problem *p, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif /* TG_SM90_H */

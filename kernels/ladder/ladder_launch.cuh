/*
 * ladder_launch.cuh — the launchers' one run-time choice: the element type of A and B. Each
 * 16-bit rung is instantiated twice, for __half and __nv_bfloat16; nothing else is.
 */
#ifndef TG_LADDER_LAUNCH_CUH
#define TG_LADDER_LAUNCH_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "problem.h"

/* Calls launch<T>(p, stream) for the problem's input type; other inputs never reach a 16-bit
 * rung (its row accepts f16 and bf16 only). */
template <template <class> class Launch>
tg_status ladder_launch_by_type(const tg_problem *p, cudaStream_t stream) {
  if (p->input == TG_IN_F16) return Launch<__half>::run(p, stream);
#ifndef TG_TRACE_RECORD /* the recording build (trace_record.cuh) traces f16: bf16 is the same */
  if (p->input == TG_IN_BF16) return Launch<__nv_bfloat16>::run(p, stream);
#endif
  return TG_ERR_NOT_SUPPORTED;
}

#endif /* TG_LADDER_LAUNCH_CUH */

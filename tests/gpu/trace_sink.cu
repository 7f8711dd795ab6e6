/*
 * trace_sink.cu — the recording build's sink (kernels/common/trace_record.cuh): the one device
 * variable every recording kernel appends to, and the host call that points it at the test's
 * buffers. Built with relocatable device code, in test_gpu_trace only.
 */
#include <cuda_runtime.h>

#include "trace_record.h"

__device__ tg_trace_sink tg_trace_sink_device;

extern "C" cudaError_t tg_trace_sink_install(const tg_trace_sink *s) {
  return cudaMemcpyToSymbol(tg_trace_sink_device, s, sizeof *s);
}

/*
 * trace_record.h — the records of the recording build: what a kernel built with
 * -DTG_TRACE_RECORD writes for every element a thread touches (trace_record.cuh's hooks), laid
 * out for the GPU trace test (tests/gpu/test_gpu_trace.c), which compares them with what
 * `tilegemm trace` computes. Valid C and CUDA C++; nothing here is in a normal build's code.
 */
#ifndef TG_TRACE_RECORD_H
#define TG_TRACE_RECORD_H

#include <stdint.h>

/* Operands (tools/trace/trace.h's tg_trace_operand has the same values). */
#define TG_REC_A 0
#define TG_REC_B 1
#define TG_REC_D 2
#define TG_REC_OPERANDS 3
/* Kinds (tg_trace_kind's values): a load from global memory, into shared memory or registers;
 * an operand or fragment read from shared memory into registers; a store to D. */
#define TG_REC_LOAD 0
#define TG_REC_FRAGMENT 1
#define TG_REC_STORE 2

/* One element a thread touched. */
typedef struct tg_trace_record {
  int32_t what; /* kind · TG_REC_OPERANDS + operand */
  int32_t smem; /* LOAD into shared memory: the element's shared-window byte address; else -1 */
  int64_t tag;  /* LOAD, FRAGMENT: the element's tag (the test fills every operand element with
                   its offset + 1, so 0 means a zero that was never read); STORE: D's offset */
} tg_trace_record;

/* Where the records go: thread t of block b (both linear) appends to records[(b · threads + t) ·
 * capacity ...], counting in counts[b · threads + t] (past capacity it only counts); thread 0 of
 * block b writes the shared-window address each operand's offsets count from into
 * smem_base[b · TG_REC_OPERANDS + operand]. A launch with more blocks or threads than the sink
 * expects (the trace's grid and blockDim) records nothing for them and counts each such hook
 * in counts[blocks · threads] instead. */
typedef struct tg_trace_sink {
  tg_trace_record *records;
  int32_t *counts;
  uint32_t *smem_base;
  int32_t capacity;
  int32_t blocks, threads;
} tg_trace_sink;

#endif /* TG_TRACE_RECORD_H */

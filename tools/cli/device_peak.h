/*
 * device_peak.h — the floor docs/performance.md measures against: the larger of a request's FLOPs
 * at the device's dense peak for its input type and its minimum bytes at the device's DRAM
 * bandwidth, both at rated clocks (so a run's distance above it includes the clock it lost).
 */
#ifndef TG_CLI_DEVICE_PEAK_H
#define TG_CLI_DEVICE_PEAK_H

#include "tilegemm.h"

typedef struct tg_floor {
  int known;          /* 0: no peak table for this architecture (the fields are 0) */
  double ms;          /* the floor */
  int memory_bound;   /* 1 when the bytes set it, 0 the FLOPs */
  double peak_tflops; /* dense peak for the request's inputs */
  double peak_gbps;   /* DRAM bandwidth */
} tg_floor;

/* The floor of *g on CUDA device dev (its SM count, rated clocks and bus width). */
tg_floor tg_request_floor(const tg_gemm *g, int dev);

#endif /* TG_CLI_DEVICE_PEAK_H */

/*
 * host_stats.h — the host clock and the median that the timing tools share (`tilegemm bench
 * --host-time`, `tilegemm ladder`'s cuBLAS line, test_gpu_plan's host-time report).
 */
#ifndef TG_HOST_STATS_H
#define TG_HOST_STATS_H

/* A monotonic wall clock, in microseconds. */
double tg_wall_us(void);

/* Sorts v[0..n) ascending in place and returns its median (the mean of the middle two when n is
 * even); n > 0. */
double tg_median_sorted(double *v, int n);

#endif /* TG_HOST_STATS_H */

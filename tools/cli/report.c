/* report.c — printing of benchmark results (see report.h). */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <cuda_runtime_api.h>
#include <string.h>
#include <time.h>

void tg_report_context_read(tg_report_context *c) {
  memset(c, 0, sizeof *c);
  int dev = 0, rt = 0, drv = 0;
  struct cudaDeviceProp p;
  cudaGetDevice(&dev);
  if (cudaGetDeviceProperties(&p, dev) == cudaSuccess)
    snprintf(c->device, sizeof c->device, "%s", p.name);
  cudaDeviceGetAttribute(&c->sm_clock_mhz, cudaDevAttrClockRate, dev);
  cudaDeviceGetAttribute(&c->mem_clock_mhz, cudaDevAttrMemoryClockRate, dev);
  c->sm_clock_mhz /= 1000;
  c->mem_clock_mhz /= 1000;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  snprintf(c->cuda, sizeof c->cuda, "%d.%d", rt / 1000, (rt % 1000) / 10);
  snprintf(c->driver, sizeof c->driver, "%d.%d", drv / 1000, (drv % 1000) / 10);
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(c->date, sizeof c->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static char major_a(const tg_gemm *g) { return tg_major_letter('a', g->a_order); }
static char major_b(const tg_gemm *g) { return tg_major_letter('b', g->b_order); }
static char major_c(const tg_gemm *g) { return tg_major_letter('c', g->c_order); }

void tg_report_problem(char *buf, size_t n, const tg_gemm *g) {
  const int len =
      snprintf(buf, n,
               "m=%lld n=%lld k=%lld l=%lld  A %s(%c-major) B %s(%c-major) C %s D %s(%c-major) "
               "acc %s  alpha=%g beta=%g  epilogue %s",
               (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch,
               tg_dtype_name(g->a_type), major_a(g), tg_dtype_name(g->b_type), major_b(g),
               tg_dtype_name(g->c_type), tg_dtype_name(g->d_type), major_c(g),
               tg_compute_name(g->compute), g->alpha, g->beta, tg_epilogue_name(g->epilogue));
  /* fp8 scales and accumulation, only where a request has them. */
  if (len >= 0 && (size_t)len < n && (g->scale_mode != TG_SCALE_NONE || g->fp8_fast_accum))
    snprintf(buf + len, n - (size_t)len, "  scales %s%s", tg_scale_mode_name(g->scale_mode),
             g->fp8_fast_accum ? ", fast accumulation" : "");
}

static void check_text(char *buf, size_t n, const tg_check_outcome *c) {
  if (!c->done) snprintf(buf, n, "%s", c->note[0] ? c->note : "not run");
  else
    snprintf(buf, n, "%s  worst error/bound %.3g over %lld elements%s", c->pass ? "PASS" : "FAIL",
             c->worst_ratio, (long long)c->checked, c->pass ? "" : " (see failures)");
}

void tg_report_table(FILE *f, const tg_report_context *c, const tg_bench_options *o,
                     const tg_bench_result *r) {
  char prob[256], chk[160];
  tg_report_problem(prob, sizeof prob, &o->g);
  fprintf(f, "device    %s (SM %d MHz, CUDA %s)\n", c->device, c->sm_clock_mhz, c->cuda);
  fprintf(f, "problem   %s\n", prob);
  fprintf(f, "timing    median of %d after %d warm-up, %d input set%s%s\n", o->iterations,
          o->warmup, r->sets, r->sets == 1 ? "" : "s", o->cold_l2 ? " (cold L2)" : "");
  check_text(chk, sizeof chk, &r->check);
  fprintf(f, "check     %s\n", chk);
  if (r->check.done && !r->check.pass)
    fprintf(f, "          %lld of %lld elements exceed the bound\n", (long long)r->check.failures,
            (long long)r->check.checked);
  fprintf(f, "tilegemm  %10.4f ms  %8.2f TFLOP/s  %8.1f GB/s  kernel %s\n", r->ms, r->tflops,
          r->gbps, r->kernel);
  if (r->floor.known)
    fprintf(f,
            "floor     %10.4f ms  %s-bound at rated clocks (%.0f TFLOP/s dense, %.0f GB/s): "
            "tilegemm at %.2fx it\n",
            r->floor.ms, r->floor.memory_bound ? "memory" : "compute", r->floor.peak_tflops,
            r->floor.peak_gbps, r->floor.ms > 0 ? r->ms / r->floor.ms : 0.0);
  if (o->vs_cublas) {
    if (r->cublas_ran) {
      fprintf(f, "cuBLASLt  %10.4f ms  %8.2f TFLOP/s\n", r->cublas_ms, r->cublas_tflops);
      if (r->cublas_check.done) {
        check_text(chk, sizeof chk, &r->cublas_check);
        fprintf(f, "cuBLASLt check  %s\n", chk);
      }
      fprintf(f, "ratio     %.3fx cuBLAS (tilegemm speed / cuBLAS speed)\n",
              r->ms > 0 ? r->cublas_ms / r->ms : 0.0);
    } else {
      fprintf(f, "cuBLASLt  not run: %s\n", r->cublas_note);
    }
  }
}

void tg_report_csv_header(FILE *f) {
  fputs(
      "label,date,device,sm_clock_mhz,mem_clock_mhz,cuda,m,n,k,batch,a_type,b_type,c_type,"
      "d_type,acc,a_major,b_major,c_major,alpha,beta,epilogue,kernel,ms,tflops,gbps,check,"
      "worst_ratio,cublas_ms,cublas_tflops,ratio_vs_cublas,floor_ms,floor_bound,scale,"
      "fast_accum\n",
      f);
}

void tg_report_csv_row(FILE *f, const tg_report_context *c, const tg_bench_options *o,
                       const tg_bench_result *r, const char *label) {
  const tg_gemm *g = &o->g;
  const char *chk = !r->check.done ? "skipped" : r->check.pass ? "PASS" : "FAIL";
  fprintf(f, "%s,%s,%s,%d,%d,%s,%lld,%lld,%lld,%lld,%s,%s,%s,%s,%s,%c,%c,%c,%g,%g,%s,%s,", label,
          c->date, c->device, c->sm_clock_mhz, c->mem_clock_mhz, c->cuda, (long long)g->m,
          (long long)g->n, (long long)g->k, (long long)g->batch, tg_dtype_name(g->a_type),
          tg_dtype_name(g->b_type), tg_dtype_name(g->c_type), tg_dtype_name(g->d_type),
          tg_compute_name(g->compute), major_a(g), major_b(g), major_c(g), g->alpha, g->beta,
          tg_epilogue_name(g->epilogue), r->kernel);
  fprintf(f, "%.5f,%.3f,%.1f,%s,%.4g,", r->ms, r->tflops, r->gbps, chk,
          r->check.done ? r->check.worst_ratio : 0.0);
  if (r->cublas_ran)
    fprintf(f, "%.5f,%.3f,%.4f,", r->cublas_ms, r->cublas_tflops,
            r->ms > 0 ? r->cublas_ms / r->ms : 0.0);
  else fputs(",,,", f);
  if (r->floor.known)
    fprintf(f, "%.5f,%s,", r->floor.ms, r->floor.memory_bound ? "memory" : "compute");
  else fputs(",,", f);
  fprintf(f, "%s,%d\n", tg_scale_mode_name(g->scale_mode), g->fp8_fast_accum);
}

/* status.c — status texts, error recording and small dtype facts shared by the library. */
#include <stdarg.h>
#include <stdio.h>

#include "handle.h"

/* Message of failures that had no handle to hold them (NULL handle, failed create). */
static _Thread_local char g_orphan_error[TG_MESSAGE_BYTES];

const char *tg_status_string(tg_status status) {
  switch (status) {
    case TG_OK: return "success";
    case TG_ERR_INVALID_VALUE: return "invalid value";
    case TG_ERR_NOT_SUPPORTED: return "not supported";
    case TG_ERR_MISALIGNED: return "misaligned operand";
    case TG_ERR_NO_DEVICE: return "no CUDA device";
    case TG_ERR_CUDA: return "CUDA error";
    case TG_ERR_OUT_OF_MEMORY: return "out of device memory";
    case TG_ERR_INTERNAL: return "internal error";
  }
  return "unknown status";
}

tg_status tg_fail(tg_handle *h, tg_status s, const char *fmt, ...) {
  char *dst = h ? h->error : g_orphan_error;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, TG_MESSAGE_BYTES, fmt, ap);
  va_end(ap);
  return s;
}

tg_status tg_succeed(tg_handle *h) {
  if (h) h->error[0] = '\0';
  else g_orphan_error[0] = '\0';
  return TG_OK;
}

const char *tg_last_error(const tg_handle *h) { return h ? h->error : g_orphan_error; }

const char *tg_last_kernel(const tg_handle *h) {
  return (h && h->last_kernel) ? h->last_kernel : "";
}

const char *tg_dtype_name(tg_dtype t) {
  switch (t) {
    case TG_F32: return "f32";
    case TG_F16: return "f16";
    case TG_BF16: return "bf16";
    case TG_E4M3: return "e4m3";
    case TG_E5M2: return "e5m2";
    case TG_S8: return "s8";
    case TG_S32: return "s32";
  }
  return "?";
}

const char *tg_compute_name(tg_compute c) {
  switch (c) {
    case TG_COMPUTE_F32: return "f32";
    case TG_COMPUTE_TF32: return "tf32";
    case TG_COMPUTE_S32: return "s32";
    case TG_COMPUTE_3XTF32: return "3xtf32";
  }
  return "?";
}

const char *tg_epilogue_name(tg_epilogue e) {
  switch (e) {
    case TG_EPI_NONE: return "none";
    case TG_EPI_BIAS: return "bias";
    case TG_EPI_RELU: return "relu";
    case TG_EPI_GELU: return "gelu";
    case TG_EPI_BIAS_RELU: return "bias-relu";
    case TG_EPI_BIAS_GELU: return "bias-gelu";
  }
  return "?";
}

size_t tg_dtype_size(tg_dtype t) {
  switch (t) {
    case TG_F32:
    case TG_S32: return 4;
    case TG_F16:
    case TG_BF16: return 2;
    case TG_E4M3:
    case TG_E5M2:
    case TG_S8: return 1;
  }
  return 0;
}

#define TG_STR_(x) #x
#define TG_STR(x) TG_STR_(x)
const char *tg_version(void) {
  return TG_STR(TILEGEMM_VERSION_MAJOR) "." TG_STR(TILEGEMM_VERSION_MINOR) "." TG_STR(
      TILEGEMM_VERSION_PATCH);
}

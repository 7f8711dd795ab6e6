/*
 * epilogue.cuh — the epilogue of every fast kernel, for one row segment of 8 consecutive
 * outputs: v = alpha·acc (+ beta·C) (+ bias) → activation → round to D's type → store.
 * C and D move as 16-byte vectors where their alignment allows and the segment is whole,
 * element by element otherwise (unaligned leading dimensions, the N edge).
 * All arithmetic is fp32, as the API documents; an int32 accumulator with exact_int is stored
 * unchanged.
 */
#ifndef TG_EPILOGUE_CUH
#define TG_EPILOGUE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "activation.cuh"
#include "element.cuh"
#include "problem.h"
#include "trace_record.cuh"

/* Outputs per epilogue segment: one 16-byte store of 16-bit data. */
#define TG_EPILOGUE_VECTOR 8

/* Bytes of a whole 8-element segment of dtype t, capped at 16: the alignment it needs. */
__device__ __forceinline__ int thread_segment_alignment(tg_dtype t) {
  return (t == TG_S8) ? 8 : 16;
}

/* Loads 8 consecutive elements of a C-like array as floats, as one or two vectors. */
__device__ __forceinline__ void thread_load8_vector(const void *base, int64_t off, tg_dtype t,
                                                    float (&v)[8]) {
  if (t == TG_F32 || t == TG_S32) {
    const uint4 *q = (const uint4 *)((const uint32_t *)base + off);
    uint4 x = q[0], y = q[1];
    uint32_t w[8] = {x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w};
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = t == TG_F32 ? __uint_as_float(w[i]) : (float)(int32_t)w[i];
  } else if (t == TG_F16 || t == TG_BF16) {
    uint4 x = *(const uint4 *)((const uint16_t *)base + off);
    uint32_t w[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (t == TG_F16) {
        __half2 h = *(const __half2 *)&w[i];
        v[2 * i] = __low2float(h);
        v[2 * i + 1] = __high2float(h);
      } else {
        __nv_bfloat162 h = *(const __nv_bfloat162 *)&w[i];
        v[2 * i] = __low2float(h);
        v[2 * i + 1] = __high2float(h);
      }
    }
  } else { /* s8 */
    uint2 x = *(const uint2 *)((const int8_t *)base + off);
    uint32_t w[2] = {x.x, x.y};
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = (float)(int8_t)(w[i / 4] >> (8 * (i % 4)));
  }
}

/* Stores 8 floats, rounded to dtype t, as one or two vectors. */
__device__ __forceinline__ void thread_store8_vector(void *base, int64_t off, tg_dtype t,
                                                     const float (&v)[8]) {
  if (t == TG_F32) {
    float4 *q = (float4 *)((float *)base + off);
    q[0] = make_float4(v[0], v[1], v[2], v[3]);
    q[1] = make_float4(v[4], v[5], v[6], v[7]);
  } else if (t == TG_S32) {
    int4 *q = (int4 *)((int32_t *)base + off);
    q[0] = make_int4(thread_float_to_s32_sat(v[0]), thread_float_to_s32_sat(v[1]),
                     thread_float_to_s32_sat(v[2]), thread_float_to_s32_sat(v[3]));
    q[1] = make_int4(thread_float_to_s32_sat(v[4]), thread_float_to_s32_sat(v[5]),
                     thread_float_to_s32_sat(v[6]), thread_float_to_s32_sat(v[7]));
  } else if (t == TG_F16 || t == TG_BF16) {
    uint32_t w[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (t == TG_F16) {
        __half2 h = __floats2half2_rn(v[2 * i], v[2 * i + 1]);
        w[i] = *(uint32_t *)&h;
      } else {
        __nv_bfloat162 h = __floats2bfloat162_rn(v[2 * i], v[2 * i + 1]);
        w[i] = *(uint32_t *)&h;
      }
    }
    *(uint4 *)((uint16_t *)base + off) = make_uint4(w[0], w[1], w[2], w[3]);
  } else { /* s8 */
    uint32_t w[2] = {0u, 0u};
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      int32_t r = thread_float_to_s32_sat(v[i]);
      r = r < -128 ? -128 : (r > 127 ? 127 : r);
      w[i / 4] |= (uint32_t)(r & 0xff) << (8 * (i % 4));
    }
    *(uint2 *)((int8_t *)base + off) = make_uint2(w[0], w[1]);
  }
}

/* Applies the epilogue to the 8 accumulators of row `row`, columns col..col+7 (col % 8 == 0) of
 * batch `bat` in the canonical frame, and stores the ones inside the matrix. */
template <typename Acc>
__device__ __forceinline__ void thread_epilogue_store8(const tg_problem &p, int64_t bat,
                                                       int64_t row, int64_t col,
                                                       const Acc (&acc)[8]) {
  if (row >= p.m || col >= p.n) return;
  const int count = p.n - col < TG_EPILOGUE_VECTOR ? (int)(p.n - col) : TG_EPILOGUE_VECTOR;
  const int64_t d_off = bat * p.batch_stride_d + row * p.ldd + col;
  const bool whole = count == TG_EPILOGUE_VECTOR;
  /* The stores below, for the recording build alone (trace_record.cuh). */
  TG_RECORD_STORES(d_off, count);
  if (p.exact_int) { /* S32 output of the plain product: the accumulator itself */
    int32_t *d = (int32_t *)p.d + d_off;
#pragma unroll
    for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i)
      if (i < count) d[i] = (int32_t)acc[i];
    return;
  }
  float v[TG_EPILOGUE_VECTOR];
#pragma unroll
  for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) v[i] = p.alpha_f * (float)acc[i];
  if (p.read_c) {
    const int64_t c_off = bat * p.batch_stride_c + row * p.ldc + col;
    float c[TG_EPILOGUE_VECTOR];
    if (whole && p.align_c >= thread_segment_alignment(p.c_type)) {
      thread_load8_vector(p.c, c_off, p.c_type, c);
    } else {
#pragma unroll
      for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i)
        c[i] = i < count ? thread_load_f32(p.c, c_off + i, p.c_type) : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) v[i] = fmaf(p.beta_f, c[i], v[i]);
  }
  if (p.has_bias) { /* f32, f16 or bf16 (validate.c); col is a multiple of 8, as for C */
    float b[TG_EPILOGUE_VECTOR];
    if (p.bias_along_m) { /* one value for the whole segment */
      const float bm = thread_load_f32(p.bias, row, p.bias_type);
#pragma unroll
      for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) b[i] = bm;
    } else if (whole && p.align_bias >= thread_segment_alignment(p.bias_type)) {
      thread_load8_vector(p.bias, col, p.bias_type, b); /* one or two 16-byte loads */
    } else {
#pragma unroll
      for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i)
        b[i] = i < count ? thread_load_f32(p.bias, col + i, p.bias_type) : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) v[i] += b[i];
  }
#pragma unroll
  for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) v[i] = thread_activate_f32(v[i], p.act);
  if (whole && p.align_d >= thread_segment_alignment(p.d_type)) {
    thread_store8_vector(p.d, d_off, p.d_type, v);
  } else {
#pragma unroll
    for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i)
      if (i < count) thread_store_from_f32(p.d, d_off + i, p.d_type, v[i]);
  }
}

/* 1 when a kernel may run the epilogue inline, pair by pair, unrolled over its accumulator
 * tile, at a few instructions per pair: D = act(alpha·acc + bias) into 16-byte-aligned
 * f32/f16/bf16 D, with no C, a bias (if any) of D's type along n, and ReLU or no activation.
 * The sm90 kernel serves the rest with separately compiled epilogues (its epilogue classes,
 * sm90_epilogue_sets.cuh). */
__host__ __device__ __forceinline__ int tg_epilogue_is_inline(const tg_problem &p) {
  return !p.read_c && !p.exact_int && p.align_d >= 16 && p.act != TG_ACT_GELU &&
         (p.d_type == TG_F32 || p.d_type == TG_F16 || p.d_type == TG_BF16) &&
         (!p.has_bias || (p.bias_type == p.d_type && !p.bias_along_m));
}

/* The two floats of a packed pair of DT (f16 or bf16), the low half first: exact. */
template <int DT>
__device__ __forceinline__ void thread_unpack2_16bit(uint32_t w, float (&v)[2]) {
  static_assert(DT == TG_F16 || DT == TG_BF16, "16-bit types only");
  if constexpr (DT == TG_BF16) { /* a bf16 is the top half of its float */
    v[0] = __uint_as_float(w << 16);
    v[1] = __uint_as_float(w & 0xffff0000u);
  } else {
    const float2 f = __half22float2(*(const __half2 *)&w);
    v[0] = f.x;
    v[1] = f.y;
  }
}

/* Element `off` of an f32/f16/bf16 array as a float. */
__device__ __forceinline__ float thread_load_float_type(const void *base, int64_t off, tg_dtype t) {
  if (t == TG_BF16) return __bfloat162float(((const __nv_bfloat16 *)base)[off]);
  if (t == TG_F16) return __half2float(((const __half *)base)[off]);
  return ((const float *)base)[off];
}

/* The bias of the J column pairs (col + 8j, col + 8j + 1), col even, that a thread finishes in
 * one chunk of an unrolled epilogue (the sm90 TMA-store epilogue; bias+ReLU into 16-bit D takes
 * the whole tile's at the end of the mainloop instead), for a request bias of D's type DT: all
 * loaded before any is used, so a chunk costs one memory round trip instead of one per pair (a
 * guarded load per element was markedly slower), one load per pair where the pairs are aligned
 * and inside the matrix. Elsewhere (edge tiles, whose stores the caller clips) each element
 * alone, columns past n reading element n - 1. Nothing is loaded (all zero) when PLAIN, without
 * a bias, or with a bias along m, which the caller loads per row. */
template <int DT, bool PLAIN, int J>
__device__ __forceinline__ void thread_load_bias_pairs(const tg_problem &p, int64_t col,
                                                       float (&b)[J][2]) {
#pragma unroll
  for (int j = 0; j < J; ++j) b[j][0] = b[j][1] = 0.0f;
  if constexpr (!PLAIN) {
    if (!p.has_bias || p.bias_along_m) return;
    constexpr int ES = DT == TG_F32 ? 4 : 2;
    if (col + 8 * (J - 1) + 1 < p.n && p.align_bias >= 2 * ES) {
#pragma unroll
      for (int j = 0; j < J; ++j) {
        if constexpr (DT == TG_F32) {
          const float2 v = *(const float2 *)((const float *)p.bias + col + 8 * j);
          b[j][0] = v.x;
          b[j][1] = v.y;
        } else {
          thread_unpack2_16bit<DT>(*(const uint32_t *)((const uint16_t *)p.bias + col + 8 * j),
                                   b[j]);
        }
      }
      return;
    }
    const int64_t last = p.n - 1;
#pragma unroll
    for (int j = 0; j < J; ++j)
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        const int64_t x = col + 8 * j + c;
        b[j][c] = thread_load_float_type(p.bias, x < last ? x : last, (tg_dtype)DT);
      }
  }
}

/* The rest of the epilogue for a pair of outputs already scaled by alpha, with its bias b from
 * thread_load_bias_pairs: bias and activation, or nothing when PLAIN. Compile-time choices, so
 * a kernel can unroll it over a whole accumulator tile without branches. */
template <bool PLAIN>
__device__ __forceinline__ void thread_epilogue_pair_finish(const tg_problem &p,
                                                            const float (&b)[2], float &v0,
                                                            float &v1) {
  if constexpr (!PLAIN) {
    if (p.has_bias) {
      v0 += b[0];
      v1 += b[1];
    }
    if (p.act == TG_ACT_RELU) {
      v0 = thread_relu_f32(v0);
      v1 = thread_relu_f32(v1);
    }
  }
}

/* ReLU, then rounding to nearest into a packed pair of DT (f16 or bf16), v0 in the low half: one
 * conversion instruction (cvt's .relu clamps negative results to zero), the same values as
 * thread_relu_f32 followed by thread_pack2_16bit, since rounding keeps signs and zero, up to the
 * sign of zero: −0 comes out +0 (checked bit for bit on an H100, NaN payloads included). */
template <int DT>
__device__ __forceinline__ uint32_t thread_pack2_16bit_relu(float v0, float v1) {
  static_assert(DT == TG_F16 || DT == TG_BF16, "16-bit types only");
  uint32_t w;
  if constexpr (DT == TG_BF16)
    asm("cvt.rn.relu.bf16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(v1), "f"(v0));
  else asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(v1), "f"(v0));
  return w;
}

/* Two floats rounded to nearest into a packed pair of DT (f16 or bf16), v0 in the low half. */
template <int DT>
__device__ __forceinline__ uint32_t thread_pack2_16bit(float v0, float v1) {
  static_assert(DT == TG_F16 || DT == TG_BF16, "16-bit types only");
  uint32_t w;
  if constexpr (DT == TG_BF16) {
    __nv_bfloat162 h = __floats2bfloat162_rn(v0, v1);
    w = *(uint32_t *)&h;
  } else {
    __half2 h = __floats2half2_rn(v0, v1);
    w = *(uint32_t *)&h;
  }
  return w;
}

#endif /* TG_EPILOGUE_CUH */

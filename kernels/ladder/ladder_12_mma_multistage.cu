/*
 * ladder_12_mma_multistage.cu — rung 12: rung 11 with a multistage cp.async pipeline and an
 * epilogue staged through shared memory.
 *
 * Mainloop. Rung 11 waits for every k-tile right after asking for it. Here shared memory holds
 * kStages = 4 stages: before the loop the CTA asks for tiles 0..2; at k-tile kt it waits until
 * tile kt has landed (cp.async.wait_group kStages-2 leaves the two younger groups in flight),
 * one barrier publishes it and retires stage kt-1, the copy of tile kt+3 goes into that freed
 * stage, and the tensor cores work on tile kt while three tiles are on their way. Every
 * iteration commits a group, empty past the last tile, so the wait count stays the same.
 *
 * Epilogue. Rung 11 stores from the mma layout: a warp's store touches 8 rows, 4 lanes
 * (8 bytes each) per row. Here the accumulators go to shared memory first (the stages are free
 * by then; rows padded so that the writes are conflict-free), and the CTA then writes D row by
 * row: a warp covers 128 consecutive columns, each lane 4 of them, with one 16-byte (f32) or
 * 8-byte (f16/bf16) store when D's alignment allows it, element by element otherwise.
 */
#include <cuda_runtime.h>

#include "ladder.h"
#include "ladder_launch.cuh"
#include "ladder_mma.cuh"

namespace {

/* Rung 11's 128×128×32 tile over 2×2 warps, with four stages. */
constexpr int kStages = TG_LADDER12_STAGES;
using Cfg = MmaConfig<TG_LADDER_MMA_SHAPE, kStages>;
static_assert(kStages >= 3, "a multistage pipeline keeps at least two tiles in flight");

constexpr int kOutVec = TG_LADDER12_OUT_VEC;     /* columns per lane in the epilogue */
constexpr int kEpiPad = TG_LADDER12_EPI_PAD;     /* floats after each staged row */
constexpr int kEpiPitch = Cfg::kTileN + kEpiPad; /* conflict-free float2 writes, 16-byte rows */
constexpr int kEpiBytes = Cfg::kTileM * kEpiPitch * (int)sizeof(float);
constexpr int kSmemBytes =
    Cfg::kStages * Cfg::kStageBytes > kEpiBytes ? Cfg::kStages *Cfg::kStageBytes : kEpiBytes;
static_assert(Cfg::kTileN % (kWarpSize * kOutVec) == 0 || (kWarpSize * kOutVec) % Cfg::kTileN == 0,
              "the epilogue's warps must cover whole rows");
static_assert(Cfg::kTileM * Cfg::kTileN % (Cfg::kThreads * kOutVec) == 0,
              "the epilogue must split evenly over the threads");

/* Four fp32 values rounded to D's type and stored at once: 16 bytes of f32 or 8 of f16/bf16. */
__device__ __forceinline__ void thread_store_vec4_as(void *d, int64_t off, tg_dtype t,
                                                     const float (&v)[kOutVec]) {
  TG_RECORD_STORES(off, kOutVec); /* nothing but in the recording build (trace_record.cuh) */
  if (t == TG_F32) {
    *reinterpret_cast<float4 *>(static_cast<float *>(d) + off) =
        make_float4(v[0], v[1], v[2], v[3]);
  } else if (t == TG_F16) {
    const __half2 lo = __floats2half2_rn(v[0], v[1]), hi = __floats2half2_rn(v[2], v[3]);
    *reinterpret_cast<uint2 *>(static_cast<__half *>(d) + off) = make_uint2(
        *reinterpret_cast<const uint32_t *>(&lo), *reinterpret_cast<const uint32_t *>(&hi));
  } else {
    const __nv_bfloat162 lo = __floats2bfloat162_rn(v[0], v[1]),
                         hi = __floats2bfloat162_rn(v[2], v[3]);
    *reinterpret_cast<uint2 *>(static_cast<__nv_bfloat16 *>(d) + off) = make_uint2(
        *reinterpret_cast<const uint32_t *>(&lo), *reinterpret_cast<const uint32_t *>(&hi));
  }
}

/* Accumulators → the staged fp32 tile: lane 4g+t writes its (row g, cols 2t..2t+1) pairs. */
template <class C>
__device__ __forceinline__ void warp_stage_accumulators(const WarpAccumulators<C> &w, float *tile) {
  const tg_cell q = tg_ladder_acc_lane_cell(threadIdx.x % kWarpSize);
  constexpr int kHalfRows = TG_LADDER_ACC_HALF_ROWS;
#pragma unroll
  for (int i = 0; i < C::kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < C::kTilesN; ++j)
#pragma unroll
      for (int half = 0; half < kPair; ++half) {
        const int row = warp_row0<C>() + i * kMmaM + q.row + half * kHalfRows;
        const int col = warp_col0<C>() + j * kMmaN + q.col;
        *reinterpret_cast<float2 *>(&tile[row * kEpiPitch + col]) =
            make_float2(w.acc[i][j][kPair * half], w.acc[i][j][kPair * half + 1]);
      }
}

/* The staged tile → D, row by row, kOutVec columns per lane. */
template <class C>
__device__ __forceinline__ void block_store_tile(const tg_problem &p, const BlockTile &t,
                                                 const float *tile) {
  constexpr int kVecsPerRow = C::kTileN / kOutVec;
  const int elem = p.d_type == TG_F32 ? (int)sizeof(float) : kElemBytes;
  const bool vector_ok = p.align_d >= kOutVec * elem; /* every row start, hence every 4th column */
#pragma unroll 4
  for (int v = threadIdx.x; v < C::kTileM * kVecsPerRow; v += C::kThreads) {
    const tg_cell cell = tg_row_vector_cell(v, kVecsPerRow, kOutVec);
    const int row = cell.row, col = cell.col;
    const int64_t grow = (int64_t)t.m0 + row, gcol = (int64_t)t.n0 + col;
    if (grow >= p.m) continue;
    const float4 acc = *reinterpret_cast<const float4 *>(&tile[row * kEpiPitch + col]);
    const float a[kOutVec] = {acc.x, acc.y, acc.z, acc.w};
    if (vector_ok && gcol + kOutVec <= p.n) {
      float out[kOutVec];
#pragma unroll
      for (int e = 0; e < kOutVec; ++e)
        out[e] = thread_epilogue_value(p, t.bat, grow, gcol + e, a[e]);
      thread_store_vec4_as(p.d, t.bat * p.batch_stride_d + grow * p.ldd + gcol, p.d_type, out);
    } else {
#pragma unroll
      for (int e = 0; e < kOutVec; ++e)
        if (gcol + e < p.n) thread_epilogue_store(p, t.bat, grow, gcol + e, a[e]);
    }
  }
}

/* kAligned: both operands move in 16-byte chunks (the common case), so the k-loop holds the
 * cp.async path alone; the other instantiation keeps the gather path for odd operands. */
template <class T, class C, bool kAligned>
__global__ void __launch_bounds__(C::kThreads) ladder_12_mma_multistage_kernel(const tg_problem p) {
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t stages = thread_smem_address(smem);
  const BlockTile t = block_tile<C::kTileM, C::kTileN>();
  TG_RECORD_BASE(TG_REC_A, smem); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, smem);
  const int k_tiles = (int)((p.k + C::kTileK - 1) / C::kTileK);
  WarpAccumulators<C> w;
  thread_zero<C>(w);
  MmaLoader ld = thread_loader<T, C>(p, t);
  /* Prologue: tiles 0 .. kStages-2 in flight, one group each (empty past the last tile). */
#pragma unroll
  for (int s = 0; s < C::kStages - 1; ++s) {
    if (s < k_tiles) thread_copy_tile_async<C, kAligned>(p, ld, stages + s * C::kStageBytes);
    thread_advance_loader<C>(ld);
    thread_cp_async_commit();
  }
  int read = 0, write = C::kStages - 1; /* stage of tile kt, stage of tile kt + kStages - 1 */
  for (int kt = 0; kt < k_tiles; ++kt) {
    thread_cp_async_wait<C::kStages - 2>(); /* tile kt has landed (this thread's part) … */
    __syncthreads(); /* … everyone's; and every warp is done with tile kt-1's stage */
    if (kt + C::kStages - 1 < k_tiles)
      thread_copy_tile_async<C, kAligned>(p, ld, stages + write * C::kStageBytes);
    thread_advance_loader<C>(ld);
    thread_cp_async_commit();
    warp_multiply_tile<T, C>(stages + read * C::kStageBytes, w);
    read = read + 1 == C::kStages ? 0 : read + 1;
    write = write + 1 == C::kStages ? 0 : write + 1;
  }
  thread_cp_async_wait<0>(); /* only empty groups remain, but leave nothing in flight */
  __syncthreads();           /* every warp is done with the stages: reuse them for D */
  float *tile = reinterpret_cast<float *>(smem);
  warp_stage_accumulators<C>(w, tile);
  __syncthreads();
  block_store_tile<C>(p, t, tile);
}

template <class T, bool kAligned>
tg_status launch_12(const tg_problem *p, cudaStream_t stream) {
  /* More than 48 KB of dynamic shared memory must be asked for. */
  if (cudaFuncSetAttribute(ladder_12_mma_multistage_kernel<T, Cfg, kAligned>,
                           cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes) != cudaSuccess)
    return TG_ERR_CUDA;
  ladder_12_mma_multistage_kernel<T, Cfg, kAligned>
      <<<ladder_grid(p, Cfg::kTileM, Cfg::kTileN), Cfg::kThreads, kSmemBytes, stream>>>(*p);
  return TG_OK;
}

template <class T>
struct Launch {
  static tg_status run(const tg_problem *p, cudaStream_t stream) {
    if (thread_a_chunks(*p) && thread_b_chunks(*p)) return launch_12<T, true>(p, stream);
    return launch_12<T, false>(p, stream);
  }
};

}  // namespace

extern "C" tg_status tg_ladder_12_mma_multistage_launch(const tg_problem *p, cudaStream_t stream) {
  return ladder_launch_by_type<Launch>(p, stream);
}

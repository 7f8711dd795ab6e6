/* sm90_pingpong.cu — pingpong schedule: each consumer warpgroup owns a whole tile and the two
 * alternate, so one warpgroup's epilogue runs under the other's mainloop. Clusters of 2 along m
 * multicast B.
 *   128×128×64 per warpgroup (two m64n128k16 per k-step), 6 stages of 32 KB;
 *   64×256×64 per warpgroup (one m64n256k16 per k-step), 5 stages of 40 KB.
 * K-major operands. */
#include "sm90_launch.cuh"

extern "C" tg_status tg_sm90_launch_pp_128x128(const tg_problem *p, cudaStream_t stream) {
  return sm90_launch_16bit<128, 128, 6, 2, TG_SM90_PINGPONG, false>(p, stream);
}

extern "C" tg_status tg_sm90_launch_pp_64x256(const tg_problem *p, cudaStream_t stream) {
  return sm90_launch_16bit<64, 256, 5, 2, TG_SM90_PINGPONG, false>(p, stream);
}

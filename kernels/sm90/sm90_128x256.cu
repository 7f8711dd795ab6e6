/* sm90_128x256.cu — 128×256×64 tiles, 2 consumer warpgroups of 64×256 (m64n256k16), 4 stages
 * (192 KB), clusters of 2 along m multicasting B: the large-problem config, fewest operand
 * bytes per flop. Any operand orders. */
#include "sm90_launch.cuh"

extern "C" tg_status tg_sm90_launch_128x256(const tg_problem *p, cudaStream_t stream) {
  return sm90_launch_16bit<128, 256, 4, 2, TG_SM90_COOPERATIVE, true>(p, stream);
}

/* The same without a cluster (each CTA fetches all of B): the planner's and tuner's alternative
 * when clusters cannot be placed well. */
extern "C" tg_status tg_sm90_launch_128x256_c1(const tg_problem *p, cudaStream_t stream) {
  return sm90_launch_16bit<128, 256, 4, 1, TG_SM90_COOPERATIVE, true>(p, stream);
}

/* sm90_pingpong.cu — pingpong schedule: each consumer warpgroup owns a whole 128×128×64 tile
 * (two m64n128k16 per k-step) and the two alternate, so one warpgroup's epilogue runs under the
 * other's mainloop; 6 stages of 32 KB; clusters of 2 along m multicast B. K-major operands. */
#include "sm90_launch.cuh"

TG_SM90_ROW_pp_128x128(SM90_ROW_FUNCTIONS)

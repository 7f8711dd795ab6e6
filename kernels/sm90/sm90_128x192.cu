/* sm90_128x192.cu — 128×192×64 tiles, 2 consumer warpgroups of 64×192 (m64n192k16), 4 stages
 * (160 KB), clusters of 2 along m multicasting B: mid-size problems whose 128×256 tiles leave a
 * wave badly filled (3072³: 384 tiles of 128×192 fill 2.9 waves of 132, against 2.2 of 128×256).
 * K-major operands (B's three 64-column boxes do not split over a cluster of two). */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x192(SM90_ROW_FUNCTIONS)

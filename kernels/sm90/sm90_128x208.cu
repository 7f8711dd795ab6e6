/* sm90_128x208.cu — 128×208×64 tiles, 2 consumer warpgroups of 64×208 (m64n208k16), 4 stages
 * (168 KB), clusters of 2 along m multicasting B (each CTA fetches 104 of its 208 rows): problems
 * whose 128×256 tiles end in a wave with half its clusters idle and whose 128×144 tiles need a
 * third wave (2560³: 20 × 13 = 260 tiles, 1.97 waves of 132, against 200 of 128×256 in 1.5 and
 * 360 of 128×144 in 2.7; 1792³: 126 tiles, one wave, against 98 of 128×256). A tile row is three
 * 128-byte chunks of 16-bit D (six of f32) and the 16-column tail chunk of the 144-wide row
 * (Sm90EpilogueLayout::kTailCols). K-major operands (an MN-major B's 64-column boxes do not tile 208). */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x208(SM90_ROW_FUNCTIONS)

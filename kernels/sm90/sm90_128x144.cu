/* sm90_128x144.cu — 128×144×64 tiles, 2 consumer warpgroups of 64×144 (m64n144k16), 5 stages
 * (170 KB), clusters of 2 along m multicasting B (each CTA fetches 72 of its 144 rows): mid-size
 * problems that 144-wide tiles fill in whole waves where wider ones leave SMs idle (1536³: 12 ×
 * 11 = 132 tiles, one per SM, against 96 of 128×192; 2560³: 360 tiles, 2.7 waves, against 200
 * of 128×256 in 1.5). A tile row is two 128-byte chunks of 16-bit D (four of f32) and a tail
 * chunk of 16 columns, which leaves through a buffer and tensor maps of its own
 * (Sm90EpilogueLayout::kTailCols). K-major operands (an MN-major B's 64-column boxes do not tile 144). */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x144(SM90_ROW_FUNCTIONS)

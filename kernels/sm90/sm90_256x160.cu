/* sm90_256x160.cu — 256×160×64 tiles, 2 consumer warpgroups of 128×160 (two m64n160k16 each: 160
 * accumulators per thread, so consumers of 240 registers and a producer of 24), 4 stages (208 KB),
 * clusters of 2 along n multicasting A (the taller operand; each CTA fetches 128 of its 256 rows):
 * long-N problems whose 128×256 tiles end in a part-filled wave. 4096×14336×4096 makes 720 items
 * of 256×320 in 10.9 rounds of 66 clusters, against 896 items of 256×256 in 13.6 (cuBLAS's
 * 320×128 tiles: 10.9). D is staged in rows of 64 bytes (Sm90EpilogueLayout::kStagingRowBytes), which
 * leaves 160 columns no tail chunk. K-major B (an MN-major B's 64-column boxes do not tile 160).
 * The plain epilogue into a 16-byte aligned D of the inputs' type only, whole tiles only (no
 * stream-K), work counted in 32 bits: with more, ptxas spilled (sm90_wide_acc, sm90_row_check). */
#include "sm90_launch.cuh"

TG_SM90_ROW_256x160(SM90_ROW_FUNCTIONS)

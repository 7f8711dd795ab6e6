/*
 * plan_cost.c — the planner's heuristic: an estimated time for every plan, comparable between
 * rows and families, used when the tuning cache has nothing for a problem.
 *
 *   cost = waves × tile_m × tile_n × (k / splits + tile overhead) × occupancy ÷ efficiency
 *          ÷ family speed + split-K partial sums and reduction + repacking, in multiply-add time
 *          units of one SM, with efficiency = 1 − (1 − row efficiency) × fill and
 *          fill = min(1, CTAs ÷ slots)
 *
 * - Wave quantization: CTAs (tiles × batch × splits) run in waves of sm_count × occupancy; a
 *   partial wave costs a whole one. This is what makes small M·N prefer small tiles and, when
 *   K is large, split-K rows (more CTAs over the same SMs). Tiles count in whole clusters (a
 *   row's cluster_m, cluster_n): a cluster cut short at an edge is launched whole, its spare CTA
 *   holding an SM (this moves the fill below; the sm90 rows count their waves themselves).
 * - efficiency (registry row, percent) is a row's measured throughput of a full wave relative
 *   to the best row of its family; family speed (below) puts the families on one scale per
 *   architecture. Both come from measured sweeps (docs/tuning.md says how to refit them).
 *   A row's shortfall is its operand feed when every SM pulls at once; a plan that fills part of
 *   the machine runs its CTAs closer to the best row's speed, so the shortfall is scaled by the
 *   fill (docs/tuning.md has the measurement).
 * - tile overhead (registry row, in k units): what a tile costs beyond its math when nothing
 *   overlaps it (the epilogue, refilling the pipeline); it makes short-K problems prefer rows
 *   that hide it (pingpong). Rows that leave it 0 are costed by their k alone. Reading C and
 *   GELU add their own overheads (c_overhead_k, gelu_overhead_k), so heavy epilogues at short K
 *   also go to the rows that overlap them; C or D of another type than A's may cost a row more
 *   (c_other_overhead_k: sm90's 128×256 tiles read C of the inputs' type into a borrowed stage).
 * - Repacking reads and writes the operand once at memory speed; a 3xTF32 split is costed as the
 *   tf32 problem of depth 3·k it becomes, plus reading each input once and writing three parts.
 * - Memory floor (a roofline): a plan cannot run faster than streaming A, B and D (and C) once
 *   from DRAM, so the compute estimate above is combined with that time as
 *   max(compute, memory) + overlap share × min(compute, memory); a row's scratch (stream-K
 *   partial sums) counts as written and read once at L2's speed. Without it the model charged
 *   memory-bound problems (decode: M of 1…128 against 4096-wide weights) by their math alone,
 *   in which a 64-row split-K tile looks cheaper than a 128-row wgmma tile whose extra rows cost
 *   nothing while the loads set the time. A row whose CTAs each stream an equal share of the
 *   operands (memory_waves: the decode family) is charged that time per whole wave: 3.4 waves
 *   take as long as 4.
 */
#include <math.h>
#include <string.h>

#include "plan.h"
#include "tf32x3.h"

/* Multiply-adds per SM per unit time at 100% efficiency, against bytes moved per SM per unit
 * time: an H100's mma.sync rate over its DRAM bandwidth. */
#define TG_MACS_PER_BYTE 107.0
#define TG_PERCENT 100.0
/* Tile assumed for rows that declare none. */
#define TG_DEFAULT_TILE 64
/* Bytes of one fp32/int32 partial sum of split-K. */
#define TG_PARTIAL_BYTES 4.0
/* Each byte of a partial sum or repacked operand is written once and read once. */
#define TG_WRITE_AND_READ 2.0
/* A split-K plan's second kernel (the reduction of the partial sums), whatever its size: a
 * launch and a pass over the partials that cannot start before the GEMM ends, about 3 µs on an
 * H100, where a cost unit is worth about 2.5 million per µs. Without it the heuristic sent small
 * squares to split-K rows that the reduction makes slower (docs/tuning.md). */
#define TG_SPLIT_K_REDUCTION_COST (3.0 * 2.5e6)

/* Cost units per byte a plan must stream from DRAM: about 2.54 million units per µs (above)
 * against the rate memory-bound GEMMs stream at on an H100, about 2.5 TB/s (docs/tuning.md). */
#define TG_MEMORY_COST_PER_BYTE (2.54e6 / 2.5e6)
/* ... and per byte that stays in L2 (a row's scratch: written, then read back soon by another
 * CTA), at the rate L2 fed the SMs on an H100 with the math removed. */
#define TG_L2_COST_PER_BYTE (2.54e6 / 7.3e6)
/* Share of the shorter of the two times (compute, memory) that does not overlap the longer:
 * a CTA waits for its first loads and drains its last tile unoverlapped. Fitted so that the
 * replay of the decode shapes (test_heuristic_replay) picks rows close to the fastest. */
#define TG_ROOFLINE_OVERLAP_LOSS 0.2

/* Throughput of a family on an architecture range relative to the fastest family there.
 * Families and architectures not listed run at 1.0. */
typedef struct family_speed {
  const char *family;
  int sm_min, sm_max;
  double speed;
  /* where the number comes from */
} family_speed;

static const family_speed k_family_speeds[] = {
    /* The best sm80 row against the best sm90 row, bf16 4096³ on an H100 (docs/tuning.md). */
    {"sm80", 90, 90, 447.0 / 767.0},
    /* The decode family runs mma.sync too: its math at the sm80 rows' rate. */
    {"decode", 90, 90, 447.0 / 767.0},
    /* The reference kernel against the best sm90 row, the same way. It only wins where
     * nothing else serves. */
    {"ref", TG_SM_ANY_MIN, TG_SM_ANY_MAX, 8.5 / 767.0},
};

double tg_plan_family_speed(const char *family, int sm) {
  for (size_t i = 0; i < sizeof k_family_speeds / sizeof k_family_speeds[0]; ++i) {
    const family_speed *f = &k_family_speeds[i];
    if (sm >= f->sm_min && sm <= f->sm_max && strcmp(f->family, family) == 0) return f->speed;
  }
  return 1.0;
}

static double ceil_div(double a, double b) { return (double)(int64_t)((a + b - 1) / b); }

int tg_plan_c_overhead_k(const tg_kernel *k, const tg_problem *p) {
  const int other = p->c_type != p->a_type || p->d_type != p->a_type;
  return other && k->c_other_overhead_k ? k->c_other_overhead_k : k->c_overhead_k;
}

double tg_plan_cost(const tg_plan *plan, const tg_problem *user) {
  const tg_kernel *k = plan->kernel;
  /* The problem as the kernel runs it (a 3xTF32 split triples k). */
  tg_problem q = *user;
  if (plan->tf32x3) tg_plan_apply(plan, &q);
  const tg_problem *p = &q;
  const double tm = k->tile_m ? k->tile_m : TG_DEFAULT_TILE,
               tn = k->tile_n ? k->tile_n : TG_DEFAULT_TILE;
  const double occupancy = k->occupancy ? k->occupancy : 1;
  const double row_efficiency = (k->efficiency ? k->efficiency : TG_PERCENT) / TG_PERCENT;
  const double speed = tg_plan_family_speed(k->family, p->sm);
  const double splits = plan->splits > 0 ? plan->splits : 1;
  /* Tiles launched: a cluster at an edge is launched whole (its spare CTA holds an SM idle). */
  const double cm = k->cluster_m > 1 ? k->cluster_m : 1, cn = k->cluster_n > 1 ? k->cluster_n : 1;
  const double tiles =
      ceil_div(ceil_div((double)p->m, tm), cm) * cm * ceil_div(ceil_div((double)p->n, tn), cn) * cn;
  const double ctas = tiles * (double)p->batch * splits;
  const double slots = (double)(p->sm_count > 0 ? p->sm_count : 1) * occupancy;
  double waves = k->waves && splits == 1 ? k->waves(p) : ceil_div(ctas, slots);
  if (waves <= 0) waves = 1;
  /* A streaming row's memory time follows its whole waves (header). */
  double memory_share = 1.0;
  if (k->memory_waves) {
    const double whole = ceil(waves);
    memory_share = whole / waves;
    waves = whole;
  }
  /* The row's shortfall scaled by the share of the machine the plan fills (header). */
  const double fill = ctas < slots ? ctas / slots : 1.0;
  const double efficiency = 1.0 - (1.0 - row_efficiency) * fill;
  const double k_cost = (double)p->k / splits + k->tile_overhead_k +
                        (p->read_c ? tg_plan_c_overhead_k(k, p) : 0) +
                        (p->act == TG_ACT_GELU ? k->gelu_overhead_k : 0);
  const double compute = waves * tm * tn * k_cost * occupancy / (efficiency * speed);
  /* A single-kernel plan's scratch (sm90 stream-K partial sums, one tile per CTA) is written
   * and read once on top, through L2 (split-K partials are counted below). */
  const double scratch =
      splits == 1 && k->workspace ? TG_WRITE_AND_READ * (double)k->workspace(p) : 0.0;
  const double memory = tg_problem_min_bytes(p) * TG_MEMORY_COST_PER_BYTE * memory_share +
                        scratch * TG_L2_COST_PER_BYTE;
  double cost = compute > memory ? compute + TG_ROOFLINE_OVERLAP_LOSS * memory
                                 : memory + TG_ROOFLINE_OVERLAP_LOSS * compute;
  /* Partial sums written and read back once per split, spread over all SMs. */
  if (splits > 1)
    cost += TG_WRITE_AND_READ * TG_PARTIAL_BYTES * splits * (double)(p->m * p->n * p->batch) *
                TG_MACS_PER_BYTE / slots +
            TG_SPLIT_K_REDUCTION_COST;
  if (plan->repack_a)
    cost += TG_WRITE_AND_READ * (double)(p->m * p->k * p->batch) * tg_dtype_size(p->a_type) *
            TG_MACS_PER_BYTE / slots;
  if (plan->repack_b)
    cost += TG_WRITE_AND_READ * (double)(p->k * p->n * p->batch) * tg_dtype_size(p->b_type) *
            TG_MACS_PER_BYTE / slots;
  /* The split reads each input once and writes its three parts (the kernel's reads of them are
   * in the memory floor above). */
  if (plan->tf32x3)
    cost += (1.0 + TG_TF32X3_PRODUCTS) * (double)((user->m + user->n) * user->k * user->batch) *
            tg_dtype_size(TG_F32) * TG_MACS_PER_BYTE / slots;
  return cost;
}

/*
 * test_sm90_grid.c — how many clusters a cooperative sm90 launch of whole work items runs on
 * (tg_sm90_whole_item_clusters, kernels/sm90/sm90.h), with no GPU: the H100 cases measured in
 * docs/history/sm90_notebook.md ("A grid of equal shares"), then for every item count up to 40
 * waves on every cluster count up to 132: never more clusters than fit, never another number of
 * rounds, and fewer clusters only where at most a third of them would run one item fewer.
 */
#include <stdint.h>

#include "check.h"
#include "sm90.h"

#define H100_CLUSTERS 66 /* clusters of 2 on 132 SMs */
#define MAX_CLUSTERS 132
#define MAX_WAVES 40

static int64_t rounds(int64_t items, int64_t clusters) { return (items + clusters - 1) / clusters; }

int main(void) {
  static const struct {
    int64_t items, clusters;
  } cases[] = {
      {256, 64},  /* 4096³ on 128×256: 8 light clusters of 66, 4 rounds on 64 */
      {512, 64},  /* 4096×8192×4096: 16 light */
      {576, 64},  /* 6144³: 18 light */
      {324, 65},  /* 4608³: 6 light, 5 rounds on 65 */
      {130, 65},  /* 2 light, 2 rounds on 65 */
      {896, 66},  /* 4096×14336×4096: 28 light, more than a third: all 66 */
      {1024, 66}, /* 8192×8192×1024 and 8192³: 32 light */
      {132, 66},  /* whole waves */
      {67, 66},   /* 65 light */
      {50, 50},   /* a partial wave: a cluster per item */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const int64_t got = tg_sm90_whole_item_clusters(cases[i].items, H100_CLUSTERS);
    CHECK_MSG(got == cases[i].clusters, "%lld items on %d clusters: %lld, expected %lld",
              (long long)cases[i].items, H100_CLUSTERS, (long long)got,
              (long long)cases[i].clusters);
  }
  /* Against a brute-force count: the fewest clusters whose rounds are those of all of them. */
  for (int64_t clusters = 1; clusters <= MAX_CLUSTERS; ++clusters)
    for (int64_t items = 1; items <= MAX_WAVES * clusters; ++items) {
      const int64_t got = tg_sm90_whole_item_clusters(items, clusters);
      const int64_t light = (clusters - items % clusters) % clusters;
      int64_t fewest = clusters;
      while (fewest > 1 && rounds(items, fewest - 1) == rounds(items, clusters)) --fewest;
      const int64_t want = items <= clusters ? items
                           : light > 0 && light * TG_SM90_BALANCE_LIGHT_DIVISOR <= clusters
                               ? fewest
                               : clusters;
      CHECK_MSG(got == want, "%lld items on %lld clusters: %lld, expected %lld", (long long)items,
                (long long)clusters, (long long)got, (long long)want);
    }
  return tg_test_finish("test_sm90_grid");
}

/* cmd_list.c — `tilegemm list`: the registry, the same table the planner reads. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tilegemm.h"

int tg_cmd_list(int argc, char **argv) {
  if (argc > 2) {
    if (strcmp(argv[2], "--help") == 0) {
      puts("usage: tilegemm list\n  prints every registered kernel (no GPU needed)");
      return TG_EXIT_OK;
    }
    fprintf(stderr, "tilegemm list: unknown option '%s'\n", argv[2]);
    return TG_EXIT_ERROR;
  }
  printf("%-28s %-6s %-10s %-12s %-5s %-4s %s\n", "kernel", "family", "arch", "tile", "rung",
         "auto", "summary");
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    if (tg_kernel_get(i, &k) != TG_OK) continue;
    char arch[32], tile[48], rung[16];
    if (k.sm_max >= 1000) snprintf(arch, sizeof arch, "sm_%d+", k.sm_min);
    else if (k.sm_min == k.sm_max) snprintf(arch, sizeof arch, "sm_%da", k.sm_min);
    else snprintf(arch, sizeof arch, "sm_%d-%d", k.sm_min, k.sm_max);
    if (k.tile_m) snprintf(tile, sizeof tile, "%dx%dx%d", k.tile_m, k.tile_n, k.tile_k);
    else snprintf(tile, sizeof tile, "-");
    if (k.rung) snprintf(rung, sizeof rung, "%d", k.rung);
    else snprintf(rung, sizeof rung, "-");
    printf("%-28s %-6s %-10s %-12s %-5s %-4s %s\n", k.name, k.family, arch, tile, rung,
           k.auto_pick ? "yes" : "no", k.summary);
  }
  return TG_EXIT_OK;
}

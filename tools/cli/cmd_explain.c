/* cmd_explain.c — `tilegemm explain`: which kernel the planner picks for a request and why
 * (tg_explain), on the current GPU or, with --virtual, on a device described by its
 * architecture and SM count (no GPU needed). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "tilegemm.h"

static const char k_help[] =
    "usage: tilegemm explain [problem options] [--virtual SM,SMS]\n"
    "\n"
    "Prints how the library would run the request, without running it: the kernel the\n"
    "planner picks and why (named by --kernel, the tuning cache, or the cost model), its tile,\n"
    "repacking and split-K, and every kernel of the device with its modeled cost against the\n"
    "pick (lower is faster) or the reason it cannot serve.\n"
    "\n"
    "  problem options       those of `tilegemm bench` (--mnkl, --ab-dtype, --c-dtype, --a-major,\n"
    "                        --alpha, --beta, --epilogue, --kernel, --scale, --fast-accum, ...);\n"
    "                        see `tilegemm bench --help`\n"
    "  --virtual SM,SMS      plan for compute capability SM (e.g. 90) with SMS SMs instead of the\n"
    "                        current GPU: no GPU needed, and no tuning cache\n"
    "\n"
    "exit codes: 0 ok, 1 usage error or a request no kernel serves, 2 no CUDA device\n";

int tg_cmd_explain(int argc, char **argv) {
  tg_cli_own_option own[] = {{"--virtual", 1, 0, NULL}};
  tg_bench_options o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0, sm = 0, sms = 0;
  char tail = 0;
  if (tg_parse_bench_plus(argc, argv, own, 1, &o, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm explain: %s\n", err);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    return TG_EXIT_OK;
  }
  const int virtual_device = own[0].seen;
  if (virtual_device &&
      (sscanf(own[0].value, "%d,%d%c", &sm, &sms, &tail) != 2 || sm < 10 || sms < 1)) {
    fprintf(stderr, "tilegemm explain: option --virtual: expected SM,SMS (e.g. 90,132)\n");
    return TG_EXIT_ERROR;
  }
  tg_handle *h = NULL;
  if (virtual_device) {
    if (tg_create_virtual(&h, sm, sms) != TG_OK) {
      fprintf(stderr, "tilegemm explain: %s\n", tg_last_error(NULL));
      return TG_EXIT_ERROR;
    }
  } else {
    const int rc = tg_cli_open_handle("explain", &h);
    if (rc) {
      if (rc == TG_EXIT_NO_DEVICE)
        fprintf(stderr, "tilegemm explain: --virtual SM,SMS explains without a GPU\n");
      return rc;
    }
  }
  static char text[TG_EXPLAIN_BYTES];
  const tg_status s = tg_explain(h, &o.g, text, sizeof text);
  fputs(text, s == TG_OK ? stdout : stderr);
  tg_destroy(h);
  return s == TG_OK ? TG_EXIT_OK : TG_EXIT_ERROR;
}

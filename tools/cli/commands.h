/*
 * commands.h — the subcommands of `tilegemm`. Each returns the process exit code:
 * 0 success, 1 usage or run-time error, 2 no usable CUDA device, 3 a result failed its check.
 */
#ifndef TG_CLI_COMMANDS_H
#define TG_CLI_COMMANDS_H

enum { TG_EXIT_OK = 0, TG_EXIT_ERROR = 1, TG_EXIT_NO_DEVICE = 2, TG_EXIT_CHECK_FAILED = 3 };

int tg_cmd_info(int argc, char **argv);
int tg_cmd_list(int argc, char **argv);
int tg_cmd_bench(int argc, char **argv);

/* Prints the reason and returns TG_EXIT_NO_DEVICE when there is no CUDA device, else 0. */
int tg_cli_require_device(void);

#endif /* TG_CLI_COMMANDS_H */

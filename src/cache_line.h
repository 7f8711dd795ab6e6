/*
 * cache_line.h — one line of the tuning cache file, read and written. Pure C.
 *
 *   v1 device="NVIDIA H100 80GB HBM3" sms=132 cuda=13.0 in=bf16 ab=bf16/bf16 cd=bf16/bf16
 *      a=row b=col align=16 m=4096 n=4096 k=4096 batch=1 kernel=sm90_128x256x64 us=210.400
 *
 * (one line in the file). Fields are key=value separated by spaces, in any order, each exactly
 * once; a value with spaces is double-quoted. fp8 lines may add scale=none|tensor|rowcol|block
 * and fast=0|1 (the fp8 part of the key; absent: none and 0), and other lines may not. Shapes, orders and alignment are those of the
 * canonical problem (D row-major). Blank lines and lines starting with '#' are comments.
 */
#ifndef TG_CACHE_LINE_H
#define TG_CACHE_LINE_H

#include <stddef.h>
#include "tune_cache.h"

/* The format this library writes and reads. */
#define TG_CACHE_FORMAT "v1"
/* Longest line the reader accepts (longer ones are corrupt). */
#define TG_CACHE_LINE_BYTES 1024

typedef enum tg_line_kind {
  TG_LINE_ENTRY = 0, /* *e is filled */
  TG_LINE_COMMENT,   /* blank or '#' */
  TG_LINE_BAD        /* why says what is wrong */
} tg_line_kind;

/* Parses one line (without its newline). The kernel name is not checked against the
 * registry here. */
tg_line_kind tg_cache_line_parse(const char *line, tg_cache_entry *e, char *why, size_t why_len);

/* Writes e as one line (no newline) into buf. Returns the length, or -1 when it does not fit. */
int tg_cache_line_format(const tg_cache_entry *e, char *buf, size_t len);

/* "13.0" for 13000. */
void tg_cache_cuda_text(int cuda, char *buf, size_t len);

#endif /* TG_CACHE_LINE_H */

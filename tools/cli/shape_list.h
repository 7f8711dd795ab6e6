/*
 * shape_list.h — the shapes and types `tilegemm tune` and `tilegemm sweep` run: from --mnkl
 * with ranges (1024:8192:1024 per field, or 128:16384:x2 for powers) and from shape files
 * (the files in bench/shapes/: one "M N K [L] [type]" per line, '#' starts a comment). No GPU needed:
 * the tests parse everything in CI.
 */
#ifndef TG_CLI_SHAPE_LIST_H
#define TG_CLI_SHAPE_LIST_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

/* Most shapes one command accepts (ranges multiply quickly). */
#define TG_SHAPES_MAX 100000
#define TG_SHAPE_LABEL_BYTES 32

/* A type of the runs: A/B element type, and the compute mode of f32 inputs on the tensor cores
 * (TG_COMPUTE_TF32 or TG_COMPUTE_3XTF32; TG_COMPUTE_F32 otherwise: the type's default). */
typedef struct tg_type_choice {
  tg_dtype ab;
  tg_compute tensor_f32;
} tg_type_choice;

/* f32 tf32 3xtf32 f16 bf16 e4m3 e5m2 s8 (and the aliases of tg_parse_dtype). 0, or -1. */
int tg_parse_type_choice(const char *s, tg_type_choice *out);

/* "bf16", "tf32", ... */
const char *tg_type_choice_name(tg_type_choice t);

/* Sets the types of *g: A and B, compute (s32 for s8, tf32 or 3xtf32 when asked, else f32), C, D
 * and bias as bench defaults them (s32 for s8 inputs, bf16 for fp8, else A's type). A type
 * other than fp8 turns off g's fp8 scales and fast accumulation (they apply to fp8 alone). */
void tg_type_choice_apply(tg_type_choice t, tg_gemm *g);

typedef struct tg_shape {
  int64_t m, n, k, batch;
  int has_type; /* the line named a type: run only that one */
  tg_type_choice type;
  char label[TG_SHAPE_LABEL_BYTES]; /* where it came from: the file's stem, or "mnkl" */
} tg_shape;

typedef struct tg_shape_list {
  tg_shape *items;
  int count, capacity;
} tg_shape_list;

void tg_shape_list_free(tg_shape_list *l);

/* Appends the shapes of "M,N,K[,L]", each field a value >= 1 or a range start:stop:step
 * (arithmetic, stop included) or start:stop:xF (start, start*F, ... up to stop): every
 * combination, m slowest. Returns 0, or -1 with a one-line reason in err. */
int tg_shape_list_add_mnkl(tg_shape_list *l, const char *spec, char *err, size_t err_len);

/* Appends the shapes of a shape file's text; name is used in messages ("name:line: ...") and
 * as the label. */
int tg_shape_list_add_text(tg_shape_list *l, const char *text, const char *name, char *err,
                           size_t err_len);

/* Reads the shape file at path (label: its file name without directory and extension). */
int tg_shape_list_add_file(tg_shape_list *l, const char *path, char *err, size_t err_len);

#endif /* TG_CLI_SHAPE_LIST_H */

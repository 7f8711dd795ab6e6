#!/usr/bin/env bash
# format_check.sh — checks that the tracked C, C++ and CUDA sources follow .clang-format.
#
#   scripts/format_check.sh            fail (exit 1) if any file would change; list those files
#   scripts/format_check.sh --stats    also count the lines clang-format would change
#   scripts/format_check.sh --fix      reformat the files in place
#
# Generated files are skipped (kernels/common/wgmma_shapes*.cuh: scripts/gen_wgmma_shapes.py
# writes them). Needs clang-format 14 or newer (Debian: apt-get install clang-format); set
# CLANG_FORMAT to use another binary. Versions may format a few constructs differently, so CI and
# developers should use the same major version.
set -euo pipefail
cd "$(dirname "$0")/.."
CF=${CLANG_FORMAT:-clang-format}
mode=${1:-check}
if ! command -v "$CF" >/dev/null 2>&1; then
  echo "format_check: $CF not found (apt-get install clang-format)" >&2
  exit 2
fi
major=$("$CF" --version | grep -oE '[0-9]+\.[0-9]+' | head -1 | cut -d. -f1)
if [ "${major:-0}" -lt 14 ]; then
  echo "format_check: $("$CF" --version) is too old; .clang-format needs 14 or newer" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.cpp' '*.hpp' |
                     grep -v -x -E "kernels/common/wgmma_shapes(_[a-z0-9]+)?\.cuh")
if [ "$mode" = --fix ]; then
  "$CF" -i --style=file "${files[@]}"
  exit 0
fi
bad=0 lines=0
for f in "${files[@]}"; do
  if ! "$CF" --dry-run --Werror --style=file "$f" >/dev/null 2>&1; then
    bad=$((bad + 1))
    if [ "$mode" = --stats ]; then
      n=$("$CF" --style=file "$f" | diff "$f" - | grep -c '^<' || true)
      lines=$((lines + n))
      echo "$f: $n lines"
    else
      echo "$f"
    fi
  fi
done
if [ "$bad" -gt 0 ]; then
  extra=""
  [ "$mode" = --stats ] && extra=", $lines lines"
  echo "format_check: $bad of ${#files[@]} files need clang-format$extra (scripts/format_check.sh --fix)" >&2
  exit 1
fi
echo "format_check: ${#files[@]} files follow .clang-format"

#!/usr/bin/env bash
# ab_bench.sh — two builds of the tilegemm command on the same problems, interleaved, in one
# call of the GPU machine: for each repeat and each case, `bench --vs-cublas --cold-l2` of build A
# then of build B, so that both meet the same clocks and the same cuBLAS. Every run is verified
# against the fp64 oracle (bench's check column). Ratios are each build's time against cuBLAS
# in its own process; compare them, not absolute times across calls.
#
#   scripts/ab_bench.sh A_BIN B_BIN CASE_FILE [REPEATS]
# CASE_FILE: one `tilegemm bench` argument line per case (`#` comments allowed).
# Environment: OUT (default ./out), ITERATIONS (default 50), LABEL_A / LABEL_B (default a / b),
# EXTRA_A / EXTRA_B (arguments added to every case of that side: two rows of one build, e.g.
# A_BIN = B_BIN and EXTRA_A="--kernel sm90_128x256x64").
# Writes $OUT/ab.csv (bench's CSV columns after `build,repeat`) and prints per case the ratio
# to cuBLAS of each repeat, A then B, with the mean change.
set -u
a_bin=$1 b_bin=$2 cases=$3 repeats=${4:-2}
OUT=${OUT:-$PWD/out}
ITERATIONS=${ITERATIONS:-50}
LABEL_A=${LABEL_A:-a} LABEL_B=${LABEL_B:-b}
mkdir -p "$OUT"
csv=$OUT/ab.csv
: >"$csv"
mapfile -t lines < <(grep -vE '^[[:space:]]*(#|$)' "$cases")
header_done=0
for ((r = 1; r <= repeats; ++r)); do
  for line in "${lines[@]}"; do
    for side in a b; do
      if [ $side = a ]; then bin=$a_bin label=$LABEL_A extra=${EXTRA_A:-}; else bin=$b_bin label=$LABEL_B extra=${EXTRA_B:-}; fi
      # shellcheck disable=SC2086
      out=$(timeout 120 "$bin" bench $line $extra --vs-cublas --cold-l2 --iterations "$ITERATIONS" --csv 2>>"$OUT/ab_err.txt")
      if [ $header_done = 0 ]; then
        echo "build,repeat,$(head -1 <<<"$out")" >>"$csv"
        header_done=1
      fi
      echo "$label,$r,$(tail -n 1 <<<"$out")" >>"$csv"
    done
  done
done
# Per case (the bench arguments, in order): kernel, TFLOP/s and ratio of every repeat, A | B.
python3 - "$csv" "$LABEL_A" "$LABEL_B" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
la, lb = sys.argv[2], sys.argv[3]
fields = ('m', 'n', 'k', 'batch', 'a_type', 'd_type', 'a_major', 'b_major', 'c_major', 'beta', 'epilogue')
cases = {}
for r in rows:
    cases.setdefault(tuple(r.get(f, '') for f in fields), {la: [], lb: []})[r['build']].append(r)
def ratios(rs):
    return [float(x['ratio_vs_cublas']) for x in rs if x.get('ratio_vs_cublas')]
def fmt(rs):
    return ' '.join('%.0f/%.3f%s' % (float(x['tflops'] or 0), float(x['ratio_vs_cublas'] or 0),
                                     '' if x['check'] == 'PASS' else '(' + x['check'] + ')') for x in rs)
for key, sides in cases.items():
    ra, rb = ratios(sides[la]), ratios(sides[lb])
    ka, kb = (sides[la] or sides[lb])[0]['kernel'], (sides[lb] or sides[la])[0]['kernel']
    kern = kb if ka == kb else ka + ' | ' + kb
    change = 100 * ((sum(rb) / len(rb)) / (sum(ra) / len(ra)) - 1) if ra and rb else float('nan')
    name = '%sx%sx%sx%s %s->%s %s%s%s beta=%s %s' % key
    print('%s [%s] %s: %s | %s: %s | %+.2f%%' % (name, kern, la, fmt(sides[la]), lb, fmt(sides[lb]), change))
EOF

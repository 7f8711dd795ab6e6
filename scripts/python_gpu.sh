#!/usr/bin/env bash
# python_gpu.sh — the Python package on the GPU machine, in one call (no network needed): build
# and install it with pip into a virtual environment that sees the system's packages (torch,
# scikit-build-core, cmake, ninja, pytest), run its tests (CPU and GPU, pytest), the five-line
# quick start (examples/quickstart.py) with the documented error bound checked against fp64 and
# torch.matmul, and `python -m tilegemm.bench` (throughput against torch, host time per call).
# Logs under $OUT; a compact summary printed last. Run from the repository root.
#
# Environment: OUT (log folder, default ./out), VENV (default /tmp/tilegemm-venv),
#   CUDA_ARCHS (CMAKE_CUDA_ARCHITECTURES of the build, default 90a-real: H100/H200 only, the
#   fastest build; "80;90a-real" is the library's default), JOBS (build jobs, default 16),
#   BENCH_ARGS (extra arguments of tilegemm.bench), PYTHON (default python3), NO_VENV=1 (install
#   with pip --target into $VENV/site instead of a venv), EXTRA_CONFIG (more `-C key=value`
#   settings for the build, e.g. "-C cmake.define.TILEGEMM_FAMILIES=common;ref").
set -u
OUT=${OUT:-$PWD/out}
VENV=${VENV:-/tmp/tilegemm-venv}
mkdir -p "$OUT"
summary=()
note() { summary+=("$1"); echo "== $1"; }
finish() { echo; echo "==== summary"; printf '%s\n' "${summary[@]}"; exit "${1:-0}"; }
repo=$PWD

start=$(date +%s)
rm -rf "$VENV" /tmp/tilegemm-pip-build
target=()
: >"$OUT/pip_install.log"
if [ -z "${NO_VENV:-}" ] &&
   "${PYTHON:-python3}" -m venv --system-site-packages "$VENV" >>"$OUT/pip_install.log" 2>&1; then
  py=$VENV/bin/python
else  # no venv: install into a folder on PYTHONPATH instead
  py=${PYTHON:-python3}
  target=(--target "$VENV/site")
  export PYTHONPATH=$VENV/site${PYTHONPATH:+:$PYTHONPATH}
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-16}
# shellcheck disable=SC2086
if "$py" -m pip install --no-build-isolation --no-index --no-deps -v "${target[@]}" . \
     -C "cmake.define.CMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-90a-real}" ${EXTRA_CONFIG:-} \
     -C build-dir=/tmp/tilegemm-pip-build >>"$OUT/pip_install.log" 2>&1; then
  note "pip install: ok in $(( $(date +%s) - start )) s ($(du -h "$($py -c 'import tilegemm; print(tilegemm.library_path)' 2>/dev/null)" 2>/dev/null | cut -f1) library)"
else
  tail -30 "$OUT/pip_install.log"; note "pip install: FAILED (pip_install.log)"; finish 1
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv \
  >"$OUT/nvidia_smi.txt" 2>&1

# Tests from outside the tree, so that `import tilegemm` is the installed package; the ABI
# probe (a C program printing the header's layout) is compiled for the ABI tests.
work=$(mktemp -d)
cc -I include python/tests/abi_probe.c -o "$work/abi_probe" >>"$OUT/pip_install.log" 2>&1
start=$(date +%s)
(cd "$work" && TILEGEMM_ABI_PROBE="$work/abi_probe" TILEGEMM_CACHE= \
   "$py" -m pytest -p no:cacheprovider -q -rs --durations=8 "$repo/python/tests" \
   >"$OUT/pytest.log" 2>&1)
rc=$?
note "pytest (cpu + gpu): rc=$rc in $(( $(date +%s) - start )) s: $(tail -1 "$OUT/pytest.log")"
grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -20

# The quick start, then its result against the documented bound (docs/python.md).
(cd "$work" && "$py" "$repo/examples/quickstart.py" && "$py" - <<'PY') >"$OUT/quickstart.log" 2>&1
import torch, tilegemm
torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
d = tilegemm.matmul(a, b).double()
exact = a.double() @ b.double()
bound = 4 * (4096 * 2.0**-24 + 2.0**-8) * (a.double().abs() @ b.double().abs()) + 2.0**-133
print("kernel", tilegemm.last_kernel(), "| worst |d - fp64| / bound:",
      f"{((d - exact).abs() / bound).max().item():.3f}", "| worst |d - torch.matmul| / (2 bound):",
      f"{((d - torch.matmul(a, b).double()).abs() / (2 * bound)).max().item():.3f}")
f = torch.compile(lambda x, y: torch.relu(tilegemm.matmul(x, y)), fullgraph=True)
print("torch.compile(fullgraph=True): equal to eager:", torch.equal(f(a, b), torch.relu(tilegemm.matmul(a, b))))
PY
note "quick start: rc=$? $(grep -h "worst\|compile" "$OUT/quickstart.log" | tr '\n' ' ')"

start=$(date +%s)
# shellcheck disable=SC2086
(cd "$work" && "$py" -m tilegemm.bench --csv "$OUT/bench.csv" ${BENCH_ARGS:-} >"$OUT/bench.log" 2>&1)
note "bench: rc=$? in $(( $(date +%s) - start )) s (bench.log, bench.csv)"
cat "$OUT/bench.log"
rm -rf "$work"
finish 0

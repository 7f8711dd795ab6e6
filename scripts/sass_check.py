#!/usr/bin/env python3
"""sass_check.py — what the compiled GEMM kernels are made of, checked from their SASS.

    python3 scripts/sass_check.py [--verbose] [--expect FAMILY]... FILE...
    python3 scripts/sass_check.py --self-test

FILE: object files or libraries holding the kernels (the CTest `sass_check` passes every object
of the library; files without device code are passed over). Each is disassembled with
`cuobjdump -sass` (found through $CUOBJDUMP, PATH, $CUDA_HOME/bin or /usr/local/cuda/bin), several
at once; no GPU is needed.

Rules, per kernel:
  sm90_gemm_kernel (sm_90a)  every HGMMA is 64xBNx16 with BN the tile width of the template and
                             the input type of the template (.F32 for f16, .F32.BF16 for bf16);
                             no HMMA; no local memory (LDL/STL: spills or indexed arrays) but
                             the return address that ptxas may hand an out-of-line helper (the
                             64-bit division's slow path) through the frame's first word: one
                             `STL [R1]` per `CALL.REL.NOINC`, at most two instructions before it or
                             storing a register last set by `MOV` to the call's return address
                             (the instruction after it; ptxas may schedule that store further up), one
                             `LDL [R1]` in each called helper (from its call target to its first
                             `RET`); these are counted apart (column `frame`), not judged;
                             setmaxnreg kept (USETMAXREG: ptxas drops it with warning C7508 when
                             the register cap at entry is missing); the k-step's wgmma batched
                             (some HGMMA without a `gsb0` wait: ptxas serializes every wgmma,
                             warning "wgmma.mma_async instructions are serialized" (C7510,
                             C7520, ...), when the accumulators are touched while in flight).
  sm80_gemm_kernel           mma.sync at work: HMMA (f16, bf16, tf32) or IMMA (s8); no HGMMA.
                             Its local-memory instructions are counted, not judged.
  f32_gemm_kernel            full fp32 math on the CUDA cores: no tensor-core instruction (HMMA,
                             HGMMA, IMMA), and at least one k-tile's FFMA of the thread tile
                             (tile_m·tile_n·tile_k / threads) in the code, i.e. the k-tile's
                             loop fully unrolled. Local memory is counted, not judged.
A family named by --expect (sm90, sm80, f32) whose kernels are absent from every FILE fails (a build
that lost them). The table counts each group's instructions and its MMA instructions as they
stand in the code (the k-loop once, not as executed); --verbose lists every kernel.

--self-test runs the local-memory rule on a made-up listing (CTest `sass_check_rules`, no
toolkit needed).

Exit status: 0 every rule holds, 1 a rule failed, 77 no cuobjdump (the check is skipped; say so).
"""
import os
import re
import shutil
import subprocess
import sys
from collections import OrderedDict

SKIP = 77

# Sm90Kernel<Sm90Config<E, BM, BN, STAGES, A_KMAJOR, B_KMAJOR, CLUSTER_M, CLUSTER_N, Schedule>, Epilogues>
SM90_NAME = re.compile(
    r"sm90_gemm_kernelI10Sm90KernelI10Sm90ConfigI(7Sm90F16|8Sm90BF16)"
    r"Li(\d+)ELi(\d+)ELi(\d+)ELb([01])ELb([01])ELi(\d+)ELi(\d+)E\d+Sm90(Cooperative|Pingpong)E"
    r"\d+Sm90Epilogue(Lean|Cast|Rest|Bias|Resid|Act)E")
# Sm80Gemm<E, BM, BN, ...>
SM80_NAME = re.compile(r"sm80_gemm_kernelI8Sm80GemmI\d+Sm80(\w+?)Li(\d+)ELi(\d+)E")
# F32Gemm<F32Config<BM, BN, BK, WARPS_M, WARPS_N, STAGES, MIN_CTAS>, A staging, B staging>
F32_NAME = re.compile(r"f32_gemm_kernelI7F32GemmI9F32ConfigILi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)E"
                      r"Li(\d+)ELi(\d+)EE")
HGMMA = re.compile(r"\bHGMMA\.(\d+)x(\d+)x(\d+)\.F32(\.BF16)?\b")
LOCAL = re.compile(r"\b(?:LDL|STL)(?:\.[A-Z0-9]+)*\b")
ADDRESS = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/")
FRAME_WORD = re.compile(r"\b(?:LDL|STL)(?:\.[A-Z0-9]+)*\s+(?:R\d+, )?\[R1\]")
CALL = re.compile(r"\bCALL\.REL\.NOINC\s+0x([0-9a-f]+)")
MOV_IMMEDIATE = re.compile(r"\bMOV (R\d+), 0x([0-9a-f]+) ;")
DESTINATION = re.compile(r"\*/\s+(?:@!?U?P[T0-9]+\s+)?[A-Z][A-Z0-9._]*\s+(R\d+),")
FRAME_STORE_VALUE = re.compile(r"\bSTL(?:\.[A-Z0-9]+)*\s+\[R1\], (R\d+)")
INSTRUCTION_BYTES = 16
# How far before its CALL the return address may be stored (instructions).
FRAME_STORE_REACH = 2
INSTRUCTION = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+\S")
FUNCTION = re.compile(r"^\s*Function : (\S+)")
ARCH = re.compile(r"arch = (sm_\w+)")
SCHEDULES = {"Cooperative": "coop", "Pingpong": "pingpong"}


def find_cuobjdump():
    candidates = [os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump")]
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            candidates.append(os.path.join(home, "bin", "cuobjdump"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


class Kernel:
    def __init__(self, arch, name):
        self.arch, self.name = arch, name
        self.instructions = 0
        self.hgmma = []          # (m, n, k, bf16) per HGMMA
        self.hgmma_waits = 0     # HGMMA that close a group (gsb0)
        self.hmma = self.imma = self.local = self.setmaxnreg = self.ffma = 0
        self.frame = 0           # local accesses that hand a helper its return address
        self.frame_candidates = []  # (address, is_store, return address stored or None) of LDL/STL at [R1]
        self.immediates = {}     # register -> the immediate its last MOV set
        self.calls = set()       # addresses of CALL instructions
        self.call_targets = set()
        self.rets = []           # addresses of RET instructions

    def helper_of(self, addr):
        """The call target of the helper holding addr (from the target to its first RET), or None."""
        starts = [t for t in self.call_targets if t <= addr]
        if not starts:
            return None
        start = max(starts)
        ends = [r for r in self.rets if r >= start]
        return start if ends and addr <= min(ends) else None

    def settle_frame(self):
        """Moves the return-address handoffs (see the rules above) from `local` to `frame`: one
        store per call, one load per helper."""
        calls_fed, helpers_fed = set(), set()
        for addr, is_store, stored in sorted(self.frame_candidates, key=lambda c: c[:2]):
            if is_store:
                call = next((addr + INSTRUCTION_BYTES * d for d in range(1, FRAME_STORE_REACH + 1)
                             if addr + INSTRUCTION_BYTES * d in self.calls), None)
                if call is None and stored is not None:
                    after = stored - INSTRUCTION_BYTES  # the call this return address follows
                    call = after if after in self.calls and after > addr else None
                if call is None or call in calls_fed:
                    continue
                calls_fed.add(call)
            else:
                helper = self.helper_of(addr)
                if helper is None or helper in helpers_fed:
                    continue
                helpers_fed.add(helper)
            self.local -= 1
            self.frame += 1


def parse(text):
    """The kernels of one `cuobjdump -sass` listing; only the families checked are read."""
    kernels, arch, k = [], "?", None
    for line in text.splitlines():
        if k is not None and line.startswith("        /*"):
            if not INSTRUCTION.match(line):
                continue
            k.instructions += 1
            if "MMA" in line:
                h = HGMMA.search(line)
                if h:
                    k.hgmma.append((int(h.group(1)), int(h.group(2)), int(h.group(3)), bool(h.group(4))))
                    if "gsb0" in line:
                        k.hgmma_waits += 1
                elif " HMMA." in line:
                    k.hmma += 1
                elif " IMMA." in line:
                    k.imma += 1
            elif " FFMA" in line:
                k.ffma += 1
            elif "LDL" in line or "STL" in line:
                if LOCAL.search(line):
                    k.local += 1
                    if FRAME_WORD.search(line):
                        v = FRAME_STORE_VALUE.search(line)
                        stored = k.immediates.get(v.group(1)) if v else None
                        k.frame_candidates.append((int(ADDRESS.match(line).group(1), 16), "STL" in line, stored))
            elif "CALL" in line:
                c = CALL.search(line)
                if c:
                    k.calls.add(int(ADDRESS.match(line).group(1), 16))
                    k.call_targets.add(int(c.group(1), 16))
            elif " RET." in line:
                k.rets.append(int(ADDRESS.match(line).group(1), 16))
            elif "USETMAXREG" in line:
                k.setmaxnreg += 1
            d = DESTINATION.search(line)
            if d:  # what each register last received, as far as a MOV of an immediate tells
                mi = MOV_IMMEDIATE.search(line)
                if mi and mi.group(1) == d.group(1):
                    k.immediates[d.group(1)] = int(mi.group(2), 16)
                else:
                    k.immediates.pop(d.group(1), None)
            continue
        m = ARCH.search(line)
        if m:
            arch = m.group(1)
            continue
        m = FUNCTION.match(line)
        if m:
            name = m.group(1)
            k = Kernel(arch, name) if any(f in name for f in ("sm90_gemm_kernel", "sm80_gemm_kernel",
                                                              "f32_gemm_kernel")) else None
            if k is not None:
                kernels.append(k)
    for k in kernels:
        k.settle_frame()
    return kernels


def disassemble_all(cuobjdump, paths):
    """Every file's listing, the disassemblers run side by side; None for a file without device
    code."""
    jobs = max(1, os.cpu_count() or 1)
    results = {}
    pending = list(paths)
    running = []
    while pending or running:
        while pending and len(running) < jobs:
            path = pending.pop(0)
            running.append((path, subprocess.Popen([cuobjdump, "-sass", path], stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE, universal_newlines=True)))
        path, proc = running.pop(0)
        out, err = proc.communicate()
        if proc.returncode != 0:
            if "does not contain device code" in err:
                results[path] = None
                continue
            raise RuntimeError("%s -sass %s failed: %s" % (cuobjdump, path, err.strip()))
        results[path] = parse(out)
    return results


def check_sm90(k, m):
    """Problems of one sm90 kernel (an empty list when it is sound), and its group key."""
    bf16 = m.group(1).endswith("BF16")
    bm, bn, stages, ak, bk, cm, cn = (int(x) for x in m.groups()[1:8])
    schedule, epilogues = m.group(9), m.group(10)
    key = "sm90 %-4s %dx%d, %d stages, cluster %dx%d, %s, %s" % (
        "bf16" if bf16 else "f16", bm, bn, stages, cm, cn, SCHEDULES.get(schedule, schedule), epilogues.upper())
    problems = []
    if k.arch != "sm_90a":
        problems.append("built for %s, not sm_90a" % k.arch)
    if not k.hgmma:
        problems.append("no HGMMA: the wgmma did not reach the tensor cores")
    wrong = sorted({h for h in k.hgmma if h != (64, bn, 16, bf16)})
    if wrong:
        problems.append("HGMMA of another shape or type than 64x%dx16 %s: %s" % (
            bn, "bf16" if bf16 else "f16",
            ", ".join("%dx%dx%d%s" % (a, b, c, ".BF16" if d else "") for a, b, c, d in wrong)))
    if k.hmma:
        problems.append("%d HMMA (mma.sync) in a wgmma kernel" % k.hmma)
    if k.local:
        problems.append("%d local-memory instructions (spills or an indexed register array)" % k.local)
    if not k.setmaxnreg:
        problems.append("no USETMAXREG: setmaxnreg was dropped (C7508)")
    if k.hgmma and k.hgmma_waits >= len(k.hgmma):
        problems.append("every HGMMA waits for itself (gsb0): ptxas serialized the wgmma")
    return key, problems


def check_sm80(k, m):
    kind, bm, bn = m.group(1), int(m.group(2)), int(m.group(3))
    key = "sm80 %-4s %dx%d (%s)" % (kind.lower(), bm, bn, k.arch)
    problems = []
    if k.hmma + k.imma == 0:
        problems.append("neither HMMA nor IMMA: mma.sync did not reach the tensor cores")
    if k.hgmma:
        problems.append("%d HGMMA in an mma.sync kernel" % len(k.hgmma))
    return key, problems


def check_f32(k, m):
    bm, bn, bk, wm, wn, stages = (int(x) for x in m.groups()[:6])
    key = "f32  %dx%dx%d, %d warps, %d stages (%s)" % (bm, bn, bk, wm * wn, stages, k.arch)
    problems = []
    if k.hmma + k.imma + len(k.hgmma):
        problems.append("tensor-core instructions (HMMA %d, IMMA %d, HGMMA %d) in an fp32 kernel" % (
            k.hmma, k.imma, len(k.hgmma)))
    per_tile = bm * bn * bk // (32 * wm * wn)
    if k.ffma < per_tile:
        problems.append("%d FFMA, fewer than one k-tile's %d: the k-tile's loop is not unrolled" % (
            k.ffma, per_tile))
    return key, problems


SELF_TEST_LISTING = """
\tcode for sm_90a
\t\tFunction : _Z16sm90_gemm_kernelI10Sm90KernelI10Sm90ConfigI8Sm90BF16Li128ELi208ELi4ELb1ELb1ELi2ELi1E15Sm90CooperativeE16Sm90EpilogueRestEEv
        /*0000*/                   STL [R1], R6 ;
        /*0010*/                   CALL.REL.NOINC 0x0100 ;
        /*0020*/                   STL [R1+0x4], R7 ;
        /*0030*/                   STL [R1], R8 ;
        /*0040*/                   LDL R9, [R1] ;
        /*0050*/                   MOV R2, R3 ;
        /*0060*/                   CALL.REL.NOINC 0x0100 ;
        /*0070*/                   MOV R4, 0xc0 ;
        /*0080*/                   STL [R1], R4 ;
        /*0090*/                   MOV R5, R3 ;
        /*00a0*/                   MOV R6, R3 ;
        /*00b0*/                   CALL.REL.NOINC 0x0100 ;
        /*00c0*/                   EXIT ;
        /*00d0*/                   BRA 0xd0 ;
        /*0100*/                   MOV R2, R3 ;
        /*0110*/                   LDL.LU R10, [R1] ;
        /*0120*/                   LDL R11, [R1+0x4] ;
        /*0130*/                   LDL R12, [R1] ;
        /*0140*/                   RET.REL.NODEC R10 0x0 ;
        /*0150*/                   LDL R13, [R1] ;
"""


def self_test():
    """The frame rule on SELF_TEST_LISTING: the store just before the first CALL, the store of
    the third CALL's return address (set by MOV, three instructions before it) and the helper's
    first load of [R1] are return-address handoffs (frame 3); local memory (6): the store at
    [R1+0x4], the store of another value three instructions before the second CALL, the load in
    the kernel's body, the helper's load at [R1+0x4], its second load of [R1], and the load after
    its RET. The kernel must then fail on its local memory."""
    k = parse(SELF_TEST_LISTING)[0]
    _, problems = check_sm90(k, SM90_NAME.search(k.name))
    judged = any("local-memory" in p for p in problems)
    ok = (k.frame, k.local) == (3, 6) and judged
    print("sass_check self-test: frame %d (expected 3), local %d (expected 6), judged %s: %s" % (
        k.frame, k.local, "yes" if judged else "no", "ok" if ok else "FAIL"))
    return 0 if ok else 1


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    verbose, expect, files = False, [], []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--verbose":
            verbose = True
        elif a == "--expect" and args and args[0] in ("sm90", "sm80", "f32"):
            expect.append(args.pop(0))
        elif a.startswith("-"):
            print("sass_check: unknown option %s (--verbose, --expect sm90|sm80|f32)" % a)
            return 1
        else:
            files.append(a)
    if not files:
        print("usage: " + __doc__.strip().splitlines()[2].strip())
        return 1
    cuobjdump = find_cuobjdump()
    if not cuobjdump:
        print("sass_check: SKIPPED: no cuobjdump (set CUOBJDUMP, or put the CUDA toolkit's bin on "
              "PATH; the PyPI wheel nvidia-cuda-cuobjdump also carries one)")
        return SKIP
    groups = OrderedDict()   # key -> [kernels, instructions min, max, mma, local, problems, frame]
    failures, seen = 0, {"sm90": 0, "sm80": 0, "f32": 0}
    listings = disassemble_all(cuobjdump, files)
    for path in files:
        for k in listings[path] or []:
            m90, m80, m32 = SM90_NAME.search(k.name), SM80_NAME.search(k.name), F32_NAME.search(k.name)
            if m90:
                key, problems = check_sm90(k, m90)
                seen["sm90"] += 1
                mma = "%d HGMMA" % len(k.hgmma)
            elif m80:
                key, problems = check_sm80(k, m80)
                seen["sm80"] += 1
                mma = "%d %s" % ((k.hmma, "HMMA") if k.hmma else (k.imma, "IMMA"))
            elif m32:
                key, problems = check_f32(k, m32)
                seen["f32"] += 1
                mma = "%d FFMA" % k.ffma
            else:
                continue
            g = groups.setdefault(key, [0, k.instructions, k.instructions, mma, 0, 0, 0])
            g[0] += 1
            g[1], g[2] = min(g[1], k.instructions), max(g[2], k.instructions)
            g[4] += k.local
            g[5] += len(problems)
            g[6] += k.frame
            for p in problems:
                failures += 1
                print("FAIL %s: %s\n     %s" % (key, p, k.name))
            if verbose:
                print("  %6d instr  %-10s local %3d  frame %3d  %s" % (k.instructions, mma, k.local, k.frame, k.name))
    print("%-52s %7s %13s %10s %6s %6s" % ("kernel group", "kernels", "instructions", "mma", "local", "frame"))
    for key, (n, lo, hi, mma, local, bad, frame) in groups.items():
        print("%-52s %7d %6d-%-6d %10s %6d %6d%s" % (key, n, lo, hi, mma, local, frame, "  FAIL" if bad else ""))
    for family in expect:
        if seen[family] == 0:
            failures += 1
            print("FAIL no %s_gemm_kernel in %s" % (family, " ".join(files)))
    print("sass_check: %d kernels (sm90 %d, sm80 %d, f32 %d), %d problems" % (
        sum(seen.values()), seen["sm90"], seen["sm80"], seen["f32"], failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env bash
# The instruction share of coverage + compositing in one hexmask run: coverage
# plus compositing should stay within 5 % of the instructions of the 24 MP → 4000² job.
#
#   bench/callgrind.sh [--out DIR] [--match REGEX] [--exclude REGEX] HEXMASK INPUT [-- OPTION...]
#   bench/callgrind.sh --make-input PATH
#
# HEXMASK is any hexmask binary (a release build is what counts: .build/release/hexmask).
# INPUT is the 24-megapixel photo of `make bench`'s job (a); --make-input writes it, with
# bench/run.py's own recipe (make_photo: coffee.png from the corpus, Lanczos-3 up to
# 6000×4000, σ = 4 grain, seed 1, JPEG q90; needs pyvips or the vips command, see
# `make bench-deps`). The job is hexmask's default one, as in `make bench`:
#     hexmask -j 1 INPUT OUT/out.png [OPTION...]
# with one thread (-j 1), so that the count is deterministic.
#
# What it does:
#  1. Runs the job under `valgrind --tool=callgrind` (instructions, Ir, only). valgrind
#     3.19 cannot read the DWARF 5 debug info of Swift 6 builds ("unhandled dwarf2 abbrev
#     form code 0x25 … Giving up"), so it runs a copy of HEXMASK with the debug sections
#     removed (`objcopy --strip-debug`): the same machine code and symbols, hence the same
#     instruction counts; only file:line attribution is lost, which is not used here.
#     --separate-callers=3 makes callgrind tell a function's calls apart by their last three
#     callers, so that a generic helper (Array.withUnsafeBufferPointer in a debug build)
#     that calls back into coverage or compositing code is counted once (step 3).
#  2. `callgrind_annotate --inclusive=yes` gives the total (PROGRAM TOTALS) and, with
#     --tree=caller, every call arc with its inclusive cost; the functions are demangled
#     with `swift demangle --simplified`.
#  3. Coverage + compositing is the set S of functions whose demangled name matches
#     --match (default: anything of ShapeCoverage, ScanlineRasterizer and Compositor —
#     including closures and specializations — maskLevels, and RowPipeline.draw when the
#     compiler kept it as a function). Its cost is counted without double counting: the sum
#     of the inclusive costs of the calls that enter S from outside it (a call from one S
#     function to another is inside its caller's cost already). Helpers that only S calls
#     (memcpy, memset, roundf, sorting, array growth) are inside S's cost; a helper that
#     both S and other code call and that calls back into S cannot be split, and is listed
#     as a warning. Calls from S into --exclude (default: flatten, the --background step of
#     RowPipeline.draw, not coverage or compositing) are taken out.
#  4. In release builds RowPipeline.draw and ShapeCoverage.row are inlined into render(),
#     so their glue (the row loop, span bookkeeping) is in render()'s own instructions,
#     which also hold the rest of render(). The "upper bound" line adds the self Ir of the
#     functions that call into S, so the true share lies between the two lines.
#
# Output (stdout): the per-function table, then lines that are easy to grep:
#     total_ir <N>
#     coverage_compositing_ir <N>
#     share_percent <P>
#     upper_bound_ir <N>   upper_bound_percent <P>
# and DIR keeps callgrind.out, the annotate outputs and out.png for a closer look
# (e.g. `callgrind_annotate --inclusive=yes DIR/callgrind.out | swift demangle --simplified`).
#
# When the coverage or compositing code moves to functions of other names, pass --match
# (a Python regular expression, searched in the simplified demangled name) and check the
# table: it lists every function of S that ran.

set -euo pipefail

DEFAULT_MATCH='(?<!for )\b(ShapeCoverage|ScanlineRasterizer|Compositor)\.|\bmaskLevels\(|\bRowPipeline\.draw\('
DEFAULT_EXCLUDE='\bflatten\('
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
  sed -n '5,6p' "$0" | sed 's/^# //' >&2
  exit 2
}

make_input() {
  # The input of `make bench`'s job (a), made by bench/run.py's own code.
  local target=$1
  mkdir -p "$(dirname "$target")"
  python3 - "$HERE" "$target" <<'EOF'
import os, sys
sys.path.insert(0, sys.argv[1])
import run  # bench/run.py
photos = run.corpus_photos()
by_name = {os.path.basename(p): p for p in photos}
landscape = by_name.get("coffee.png", photos[0])  # as in run.generate_inputs
run.make_photo(landscape, 6000, 4000, os.path.abspath(sys.argv[2]), seed=1)
print(f"callgrind.sh: wrote {sys.argv[2]} from {landscape}", file=sys.stderr)
EOF
}

out=""
match=$DEFAULT_MATCH
exclude=$DEFAULT_EXCLUDE
positional=()
while (($#)); do
  case $1 in
    --make-input) [[ $# -ge 2 ]] || usage; make_input "$2"; exit 0 ;;
    -o | --out) [[ $# -ge 2 ]] || usage; out=$2; shift 2 ;;
    --match) [[ $# -ge 2 ]] || usage; match=$2; shift 2 ;;
    --exclude) [[ $# -ge 2 ]] || usage; exclude=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "callgrind.sh: unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
extra=("$@")  # options passed on to hexmask, after --
[[ ${#positional[@]} -eq 2 ]] || usage
bin=${positional[0]}
input=${positional[1]}
[[ -x $bin && -f $bin ]] || { echo "callgrind.sh: $bin is not an executable file" >&2; exit 2; }
[[ -f $input ]] || { echo "callgrind.sh: no input $input (make it with --make-input $input)" >&2; exit 2; }
for tool in valgrind callgrind_annotate python3; do
  command -v "$tool" >/dev/null || { echo "callgrind.sh: $tool is needed (apt-get install valgrind python3)" >&2; exit 2; }
done

if [[ -z $out ]]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/hexmask-callgrind.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")

# 1. A copy without debug info (see above), beside links to whatever shared libraries sit
#    next to the original, so that an $ORIGIN run path finds the same ones.
run_dir="$out/bin"
rm -rf "$run_dir"
mkdir -p "$run_dir"
shopt -s nullglob
for lib in "$(dirname "$bin")"/*.so "$(dirname "$bin")"/*.so.*; do ln -s "$lib" "$run_dir/"; done
shopt -u nullglob
measured="$run_dir/$(basename "$bin")"
if command -v objcopy >/dev/null; then
  objcopy --strip-debug "$bin" "$measured"
else
  echo "callgrind.sh: warning: no objcopy; running $bin with its debug info" >&2
  cp "$bin" "$measured"
fi

echo "binary:  $bin" >&2
echo "sha256:  $(sha256sum "$bin" | cut -d' ' -f1)" >&2
echo "input:   $input" >&2
echo "command: hexmask -j 1 $input $out/out.png ${extra[*]:-}" >&2
echo "callgrind.sh: running under callgrind (a 24 MP job takes about 15 s to a few minutes)…" >&2
rm -f "$out/out.png" "$out/callgrind.out"
if ! valgrind --tool=callgrind --separate-callers=3 --callgrind-out-file="$out/callgrind.out" \
  --log-file="$out/valgrind.log" "$measured" -j 1 "$input" "$out/out.png" "${extra[@]}"; then
  echo "callgrind.sh: the run failed; see $out/valgrind.log" >&2
  tail -n 20 "$out/valgrind.log" >&2
  exit 1
fi

# 2. The annotations: inclusive per function, the callers' arcs, and self per function.
callgrind_annotate --inclusive=yes --threshold=100 "$out/callgrind.out" >"$out/inclusive.txt"
callgrind_annotate --inclusive=yes --tree=caller --threshold=100 "$out/callgrind.out" >"$out/callers.txt"
callgrind_annotate --threshold=100 "$out/callgrind.out" >"$out/self.txt"

demangler=()
if command -v swift >/dev/null && swift demangle --help >/dev/null 2>&1; then
  demangler=(swift demangle --simplified)
elif command -v swift-demangle >/dev/null; then
  demangler=(swift-demangle --simplified)
else
  echo "callgrind.sh: warning: no swift demangle; --match is searched in mangled names" >&2
fi

# 3. and 4. The sums.
python3 - "$out" "$match" "$exclude" "${demangler[@]}" <<'EOF'
import re
import subprocess
import sys
from collections import defaultdict

out, match, exclude, demangler = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

# A cost line of callgrind_annotate: "  1,234 ( 0.02%)  < file:function (12x) [object]".
LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(?:([<>*])\s+)?(.*?)"
                  r"(?:\s+\(([\d,]+)x\))?(?:\s+\[([^\]]*)\])?\s*$")


def number(text):
    return int(text.replace(",", ""))


def parse_function(text, obj):
    """(key, name): the key is unique per function and object; the name has no file."""
    file_, _, name = text.partition(":") if ":" in text else ("", "", text)
    if file_ != "???" and "/" not in file_ and "." not in file_:
        name = text  # no "file:" prefix after all
    return (name, obj or ""), name


def base(key):
    """The function itself: callgrind writes a function seen in a context of callers
    (--separate-callers) as "function'caller'caller's caller", and a recursion level as
    "function'2"."""
    return key[0].split("'")[0]


def read_lines(path):
    with open(path) as f:
        return f.read().splitlines()


def program_total(lines):
    for line in lines:
        if line.rstrip().endswith("PROGRAM TOTALS"):
            return number(line.split()[0])
    sys.exit("callgrind.sh: no PROGRAM TOTALS in the annotation")


def function_costs(lines):
    """function key → cost, from a flat listing (inclusive or self)."""
    costs, started = {}, False
    for line in lines:
        if "file:function" in line:
            started = True
            continue
        m = LINE.match(line) if started else None
        if m and not m.group(2) and m.group(3):
            key, _ = parse_function(m.group(3), m.group(5))
            costs[key] = costs.get(key, 0) + number(m.group(1))
    return costs


inclusive_lines = read_lines(f"{out}/inclusive.txt")
total = program_total(inclusive_lines)
inclusive = function_costs(inclusive_lines)
self_cost = function_costs(read_lines(f"{out}/self.txt"))

# Arcs from the caller tree: blocks of "< caller" lines ending with "* function".
arcs = defaultdict(int)  # (caller, callee) → inclusive cost of the calls
callers = defaultdict(set)
names = {}
pending = []
for line in read_lines(f"{out}/callers.txt"):
    m = LINE.match(line)
    if not m or not m.group(2):
        if not line.strip():
            pending = []
        continue
    key, name = parse_function(m.group(3), m.group(5))
    names[key] = name
    if m.group(2) == "<":
        pending.append((key, number(m.group(1))))
    elif m.group(2) == "*":
        for caller, cost in pending:
            arcs[caller, key] += cost
            callers[key].add(caller)
        pending = []
for key in inclusive:
    names.setdefault(key, key[0])

# Demangle every function once (swift demangle passes other text through unchanged).
keys = sorted(names)
bases = sorted({base(k) for k in keys})
plain = {b: b for b in bases}
if demangler:
    text = "\n".join(b.replace("\n", " ") for b in bases) + "\n"
    done = subprocess.run(demangler, input=text, capture_output=True, text=True)
    lines = done.stdout.split("\n")
    if done.returncode == 0 and len(lines) >= len(bases):
        plain = dict(zip(bases, lines))
    else:
        print("callgrind.sh: warning: demangling failed; matching mangled names", file=sys.stderr)
readable = {key: plain[base(key)] for key in keys}

in_s = {k for k in keys if re.search(match, readable[k])}
in_x = {k for k in keys if re.search(exclude, readable[k])} - in_s
if not in_s:
    sys.exit(f"callgrind.sh: no function matches --match {match!r}; see {out}/inclusive.txt")

# Inside: S, and (to a fixed point) every function that only Inside functions call.
inside = set(in_s)
changed = True
while changed:
    changed = False
    for key in keys:
        if key not in inside and callers[key] and callers[key] <= inside:
            inside.add(key)
            changed = True

entry = defaultdict(int)  # S function → cost of the calls into it from outside
ambiguous = []
for (caller, callee), cost in arcs.items():
    if callee in in_s and caller not in inside:
        entry[callee] += cost
        if callers[caller] & inside:
            ambiguous.append((cost, caller, callee))
excluded = sum(cost for (caller, callee), cost in arcs.items() if caller in inside and callee in in_x)
measured = sum(entry.values()) - excluded

# The callers that enter S from outside: their own instructions may hold inlined S code.
entry_callers = {caller for (caller, callee) in arcs if callee in in_s and caller not in inside}
glue = sum(self_cost.get(c, 0) for c in entry_callers)


def pct(n):
    return 100.0 * n / total if total else 0.0


width = len(f"{total:,}")


def by_name(costs, chosen):
    """Costs summed over the contexts of each function (its calls in different contexts
    are different calls), largest first."""
    sums = defaultdict(int)
    for key in chosen:
        sums[readable[key]] += costs.get(key, 0)
    return sorted(sums.items(), key=lambda item: -item[1])


entered = dict(by_name(entry, in_s))
print(f"{'inclusive Ir':>{width}}  {'entered from outside':>{width}}  function (S: coverage + compositing)")
for name, cost in by_name(inclusive, in_s):
    print(f"{cost:>{width},}  {entered.get(name, 0):>{width},}  {name}")
if excluded:
    print(f"excluded (--exclude {exclude!r}, called from S): {excluded:,}")
print()
print("callers entering S (their self Ir may hold inlined coverage/compositing code):")
for name, cost in by_name(self_cost, entry_callers):
    print(f"{cost:>{width},}  self Ir of {name}")
for cost, caller, callee in sorted(ambiguous, reverse=True):
    print(f"warning: {caller[0]} is called from S and from elsewhere and calls "
          f"{callee[0]} ({cost:,} Ir): that may be counted twice", file=sys.stderr)
print()
print(f"total_ir {total}")
print(f"coverage_compositing_ir {measured}")
print(f"share_percent {pct(measured):.2f}")
print(f"upper_bound_ir {measured + glue}   upper_bound_percent {pct(measured + glue):.2f}"
      "   (adds the self Ir of the callers above)")
print(f"files: {out}/callgrind.out, inclusive.txt, callers.txt, self.txt, out.png")
EOF

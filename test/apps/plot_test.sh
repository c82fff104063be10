#!/usr/bin/env bash
# plot_test.sh KELP SOURCE_DIR: apps/plot/kelp-plot (kelp_plot.py) renders PNG convergence plots from real
# `kelp run` reports (a left-preconditioned GMRES solve, a CG solve, a LOBPCG eigen solve and a
# KPM density of states, alone and with another DOS in one panel):
# one report per plot, several in one, and refuses a file that is not a report.
# Exit 77 (skipped) only when matplotlib is missing.
set -euo pipefail
kelp=$1
source_dir=$2
plot=(bash "$source_dir/apps/plot/kelp-plot")

# The wrapper's search: the first Python 3 with matplotlib; none means skipped.
python=""
for candidate in ${KELP_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import matplotlib' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "plot_test: matplotlib is missing (python3-matplotlib): skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/gmres.yaml" <<'YAML'
problem:
  generator: {type: laplace2d, nx: 20, ny: 20}
  rhs: {type: ones}
solver:
  type: gmres
  restart: 10
  side: left
  preconditioner: {type: jacobi}
YAML
cat >"$work/cg.yaml" <<'YAML'
problem:
  generator: {type: laplace2d, nx: 20, ny: 20}
  rhs: {type: ones}
solver: {type: cg, variant: single_reduction, preconditioner: {type: jacobi}}
YAML
cat >"$work/eigen.yaml" <<'YAML'
task: eigen
problem:
  generator: {type: laplace2d, nx: 12, ny: 12}
eigen: {num_eigenpairs: 3, relative_tolerance: 1.0e-6}
YAML
cat >"$work/dos.yaml" <<'YAML'
task: dos
problem:
  generator: {type: tight_binding, nx: 8, ny: 8, nz: 8, periodic: true}
dos: {num_moments: 64, num_vectors: 4, num_energies: 81}
YAML
cat >"$work/dos_exact.yaml" <<'YAML'
task: dos
problem:
  generator: {type: tight_binding, nx: 6, ny: 6, nz: 6, periodic: true}
dos: {num_moments: 64, trace: exact, num_energies: 81}
YAML
for name in gmres cg eigen dos dos_exact; do
  "$kelp" run "$work/$name.yaml" --report "$work/$name.json" >"$work/$name.log"
done

# A valid PNG: the signature, an IHDR chunk first, a positive size, more than a few bytes.
check_png() {
  "$python" - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
assert data[12:16] == b"IHDR", "no IHDR chunk"
width, height = struct.unpack(">II", data[16:24])
assert width > 100 and height > 100, f"size {width} x {height}"
assert len(data) > 2000, f"only {len(data)} bytes"
assert data[-8:-4] == b"IEND", "no IEND chunk"
print(f"{sys.argv[1]}: PNG {width} x {height}, {len(data)} bytes")
PY
}

"${plot[@]}" "$work/gmres.json" -o "$work/one.png"
check_png "$work/one.png"
"${plot[@]}" "$work/gmres.json" "$work/cg.json" "$work/eigen.json" -o "$work/all.png" \
  --title "plot_test"
check_png "$work/all.png"
# The DOS: rho(E) with its error band, two reports (stochastic and exact trace) in one panel.
"${plot[@]}" "$work/dos.json" "$work/dos_exact.json" -o "$work/dos.png" --title "cubic lattice"
check_png "$work/dos.png"

# The KPM roofline plot of kelp-bench-kpm logs (the committed CPU and H100 runs), and a refusal of
# a file that is not such a log.
"$python" "$source_dir/apps/plot/kpm_roofline.py" "$source_dir/docs/data/cpu16/issue12/kpm_cpu16.jsonl" \
  "$source_dir/docs/data/h100/merge-2026-11-26b/kpm.jsonl" -o "$work/roofline.png"
check_png "$work/roofline.png"
if "$python" "$source_dir/apps/plot/kpm_roofline.py" "$work/gmres.json" -o "$work/no.png" 2>/dev/null; then
  echo "plot_test: kpm_roofline accepted a file that is not a kelp-bench-kpm log" >&2
  exit 1
fi

echo '{"no": "task"}' >"$work/bad.json"
if "${plot[@]}" "$work/bad.json" -o "$work/bad.png" 2>"$work/bad.err"; then
  echo "plot_test: a file without a task was accepted" >&2
  exit 1
fi
grep -q "not a kelp run report" "$work/bad.err"

# The output is checked before drawing: never one of the inputs, always *.png, in a folder that
# exists; each refusal is one line and leaves the inputs as they were.
cp "$work/cg.json" "$work/cg.keep"
refuses() {  # refuses FRAGMENT COMMAND...
  local fragment=$1
  shift
  if "$@" 2>"$work/refused.err"; then
    echo "plot_test: accepted: $*" >&2
    exit 1
  fi
  grep -q -- "$fragment" "$work/refused.err" || { cat "$work/refused.err" >&2; exit 1; }
}
refuses "is also an input" "${plot[@]}" "$work/cg.json" -o "$work/cg.json"
refuses "is also an input" "${plot[@]}" "$work/gmres.json" "$work/cg.json" -o "$work/./cg.json"
refuses "name the output \*.png" "${plot[@]}" "$work/cg.json" -o "$work/cg.pdf"
refuses "does not exist" "${plot[@]}" "$work/cg.json" -o "$work/missing/cg.png"
refuses "is also an input" "$python" "$source_dir/apps/plot/kpm_roofline.py" \
  "$source_dir/docs/data/cpu16/issue12/kpm_cpu16.jsonl" -o "$source_dir/docs/data/cpu16/issue12/kpm_cpu16.jsonl"
cmp "$work/cg.json" "$work/cg.keep"
test ! -e "$work/cg.pdf"
echo "plot_test: passed"

#!/usr/bin/env bash
# dist_schwarz_run_test.sh KELP SOURCE_DIR MPIEXEC: `kelp run` under mpirun with the additive
# Schwarz preconditioner (issue 14). configs/laplace3d_dist_schwarz_gmres.yaml (shrunk) converges
# on 2 ranks with overlap 0, 1 and 2, overlap 1 and 2 in fewer GMRES iterations than overlap 0;
# cg picks the symmetric variant (auto) and converges; without a distribution section the
# preconditioner is its local one; bad keys and values stop both ranks with the message.
set -euo pipefail
kelp=$1
source_dir=$2
mpiexec=$3
config=$source_dir/configs/laplace3d_dist_schwarz_gmres.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
small=(--set 'problem.generator={type: laplace3d, nx: 16, ny: 16, nz: 16}')

iterations() {  # iterations REPORT
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['converged'], 'not converged'; print(r['iterations'])" "$1"
}

declare -A its
for overlap in 0 1 2; do
  out=$work/o$overlap.out
  "$mpiexec" -n 2 --oversubscribe "$kelp" run "$config" "${small[@]}" --set solver.preconditioner.overlap=$overlap \
    --set output.report="$work/o$overlap.json" >"$out" 2>&1 || { cat "$out"; echo "dist_schwarz_run_test: overlap $overlap failed"; exit 1; }
  grep -q "additive Schwarz {overlap: $overlap, variant: restricted" "$out" || { cat "$out"; echo "dist_schwarz_run_test: no summary"; exit 1; }
  its[$overlap]=$(iterations "$work/o$overlap.json")
done
echo "dist_schwarz_run_test: GMRES iterations at overlap 0, 1, 2: ${its[0]} ${its[1]} ${its[2]}"
[ "${its[1]}" -lt "${its[0]}" ] && [ "${its[2]}" -lt "${its[0]}" ] || { echo "dist_schwarz_run_test: overlap did not reduce the iterations"; exit 1; }

# cg: `variant: auto` is the symmetric one.
"$mpiexec" -n 2 --oversubscribe "$kelp" run "$config" "${small[@]}" \
  --set 'solver={type: cg, max_iterations: 1000, relative_tolerance: 1.0e-8, preconditioner: {type: additive_schwarz, overlap: 2, local: {type: gauss_seidel}}}' \
  --set output.report="$work/cg.json" >"$work/cg.out" 2>&1 || { cat "$work/cg.out"; exit 1; }
grep -q "variant: symmetric" "$work/cg.out" || { cat "$work/cg.out"; echo "dist_schwarz_run_test: cg did not pick symmetric"; exit 1; }
iterations "$work/cg.json" >/dev/null

# Serial: one subdomain, the local preconditioner.
grep -v '^distribution:' "$config" >"$work/serial.yaml"
"$kelp" run "$work/serial.yaml" "${small[@]}" --set output.report="$work/serial.json" >"$work/serial.out" 2>&1 || {
  cat "$work/serial.out"; exit 1; }
iterations "$work/serial.json" >/dev/null

# Bad keys and values: every rank exits with 2 and prints the message; no hang.
expect_error() {  # expect_error PATTERN ARGS...
  local pattern=$1 status=0
  shift
  timeout 120 "$mpiexec" -n 2 --oversubscribe bash -c '"$0" "$@"; echo "rank exit status $?"' \
    "$kelp" run "$config" "${small[@]}" "$@" >"$work/bad.out" 2>&1 || status=$?
  local messages exits
  messages=$(grep -o "$pattern" "$work/bad.out" | wc -l)
  exits=$(grep -c "rank exit status 2" "$work/bad.out" || true)
  if [ "$status" = 124 ] || [ "$messages" -ne 2 ] || [ "$exits" -ne 2 ]; then
    cat "$work/bad.out"
    echo "dist_schwarz_run_test: $*: mpiexec status $status, $messages messages, $exits ranks exited with 2 (expected 2 each)"
    exit 1
  fi
}
expect_error "unknown value 'bogus'" --set solver.preconditioner.variant=bogus
expect_error "expected overlap >= 0" --set solver.preconditioner.overlap=-1
expect_error "unknown key .overlpa.; allowed: \[type, overlap, variant, local\]" --set solver.preconditioner.overlpa=1
expect_error "unknown preconditioner type 'ilu0'" --set 'solver.preconditioner.local={type: ilu0}'
echo "dist_schwarz_run_test: passed"

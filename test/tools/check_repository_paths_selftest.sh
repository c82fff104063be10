#!/usr/bin/env bash
# The path checker must be able to fail: a scratch repository with one file that leads outside
# must be rejected with that file and line named, and a clean one accepted.
set -euo pipefail
checker=$(cd "$(dirname "$0")" && pwd)/check_repository_paths.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git -C "$scratch" init -q
mkdir -p "$scratch/configs" "$scratch/data"
echo "matrix: {file: ../data/a.mtx}" >"$scratch/configs/inside.yaml"  # path-check: ignore
touch "$scratch/data/a.mtx"
git -C "$scratch" add -A
bash "$checker" "$scratch" >/dev/null || { echo "selftest: a clean repository was rejected"; exit 1; }

printf 'first line\nmatrix: {file: ../../elsewhere/a.mtx}\n' >"$scratch/configs/outside.yaml"  # path-check: ignore
git -C "$scratch" add -A
if output=$(bash "$checker" "$scratch"); then
  echo "selftest: a path outside the repository was accepted"; exit 1
fi
grep -q "configs/outside.yaml:2: names '../../elsewhere/a.mtx'" <<<"$output" ||  # path-check: ignore
  { echo "selftest: the report does not name the file and line: $output"; exit 1; }
echo "selftest: passed"

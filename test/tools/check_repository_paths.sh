#!/usr/bin/env bash
# Fails when a tracked text file names a relative path that leads out of the repository: one that
# escapes it from the file's own folder or from the repository root, unless the other reading is
# a file or folder that exists inside. A user's clone has nothing beside it, so such a path works
# only on the machine it was written on.
#
#   check_repository_paths.sh REPO          exit 0 clean, 1 with a list of offending lines,
#                                           77 (skipped) when REPO is not a git checkout
#
# A line that says `path-check: ignore` is skipped (a path inside a test's scratch folder).
# Not checked: docs/data/ (raw records of past benchmark runs, kept as they were measured) and
# the compressed matrices under test/data/matrices/.
set -euo pipefail
repo=$(cd "${1:?usage: check_repository_paths.sh REPO}" && pwd -P)
if ! git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check_repository_paths: skipped: $repo is not a git checkout"
  exit 77
fi

inside() { [ "$1" = "$repo" ] || [ "${1#"$repo"/}" != "$1" ]; }

bad=0
while IFS= read -r -d '' file; do
  case "$file" in docs/data/*|test/data/matrices/*) continue ;; esac
  [ -f "$repo/$file" ] && grep -Iq . "$repo/$file" || continue  # text files only
  dir=$(dirname "$repo/$file")
  while IFS= read -r match; do
    line=${match%%:*}
    path=${match#*:}
    sed -n "${line}p" "$repo/$file" | grep -q 'path-check: ignore' && continue
    from_file=$(realpath -m "$dir/$path")
    from_root=$(realpath -m "$repo/$path")
    if inside "$from_file" && inside "$from_root"; then continue; fi
    if ! { inside "$from_file" && [ -e "$from_file" ]; } &&
       ! { inside "$from_root" && [ -e "$from_root" ]; }; then
      echo "$file:$line: names '$path', which is outside the repository"
      bad=1
    fi
  done < <(grep -noE '(\.\./)+[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*' "$repo/$file" || true)
done < <(git -C "$repo" ls-files -z)

if [ $bad -ne 0 ]; then
  echo "check_repository_paths: tracked files name paths outside $repo (carry the data in the repository)"
  exit 1
fi
echo "check_repository_paths: no tracked file names a path outside the repository"

#!/usr/bin/env bash
# Builds Kelp for NVIDIA GPUs: Kokkos 3.4.1 with the CUDA and OpenMP backends, built in place
# (add_subdirectory) from Debian bookworm's trilinos source package, patched for CUDA 13 and
# Hopper by patches/kokkos-3.4.1-cuda13.patch.
#
#   scripts/build_cuda.sh [MODE] [-j N] [BUILD_DIR] [-- EXTRA_CMAKE_ARGS...]
#
# Modes:
#   --compile-only   (default) fetch+patch Kokkos if not cached, configure, build everything
#                    (library, apps, tests). Needs nvcc, no GPU.
#   --test           as --compile-only, then run ctest (needs a GPU).
#   --test-only      run ctest in an existing BUILD_DIR, build nothing.
#   --bundle         as --compile-only, then pack what ctest needs into build-cuda-carry/ (tests,
#                    apps, shared libraries) for the device machine; the matrices travel in test/data.
#   --run-bundle     on the device machine: unpack build-cuda-carry/ and run ctest there.
#   --kokkos-source  only fetch+patch Kokkos; print its path.
#
# BUILD_DIR defaults to build-cuda (relative to the repository root).
# Environment: KELP_CACHE_DIR (default ~/.cache/kelp) holds the patched Kokkos source;
# KELP_CUDA_ARCH (default HOPPER90) picks Kokkos_ARCH_<arch>; CUDA_ROOT / PATH pick nvcc;
# NVCC_WRAPPER_DEFAULT_COMPILER (default g++) is nvcc's host compiler; CTEST_ARGS adds ctest
# arguments. Every phase prints its wall time.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
patch_file=$repo/patches/kokkos-3.4.1-cuda13.patch
cache_dir=${KELP_CACHE_DIR:-${HOME:-/tmp}/.cache/kelp}
arch=${KELP_CUDA_ARCH:-HOPPER90}
carry_dir=$repo/build-cuda-carry
mode=compile-only
jobs=$(nproc 2>/dev/null || echo 2)
build_dir=build-cuda
extra_cmake=()

usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "build_cuda: error: $*" >&2; exit 1; }
log() { echo "build_cuda: $*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --compile-only) mode=compile-only ;;
    --test) mode="test" ;;
    --test-only) mode=test-only ;;
    --bundle) mode=bundle ;;
    --run-bundle) mode=run-bundle ;;
    --kokkos-source) mode=kokkos-source ;;
    -j) shift; jobs=${1:?-j needs a number} ;;
    -j*) jobs=${1#-j} ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra_cmake=("$@"); break ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) build_dir=$1 ;;
  esac
  shift
done
case "$build_dir" in /*) ;; *) build_dir=$repo/$build_dir ;; esac

# --- phase timing ---------------------------------------------------------------------------
phase_names=()
phase_secs=()
phase_start=0
phase_begin() { phase_start=$(date +%s.%N); log "== $1"; }
phase_end() {
  local secs
  secs=$(awk -v a="$phase_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  phase_names+=("$1")
  phase_secs+=("$secs")
  log "-- $1: ${secs} s"
}
print_times() {
  [ ${#phase_names[@]} -gt 0 ] || return 0
  log "phase wall times:"
  local i
  for i in "${!phase_names[@]}"; do
    printf 'build_cuda:   %-28s %8s s\n' "${phase_names[$i]}" "${phase_secs[$i]}"
  done
}
trap print_times EXIT

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root (or sudo) to run: $*"
  fi
}

# --- Kokkos source: download, extract packages/kokkos only, patch (cached) -----------------------
patch_hash=$(sha256sum "$patch_file" | cut -c1-12)
kokkos_src=$cache_dir/kokkos-3.4.1-$patch_hash

ensure_deb_src() {
  if apt-cache showsrc trilinos 2>/dev/null | grep '^Package: trilinos' >/dev/null; then return 0; fi
  local list=/etc/apt/sources.list.d/kelp-src.sources signed_by
  # Reuse the keyring of the existing deb.debian.org entry: apt rejects two Signed-By values for
  # one source. deb822 stanzas first, then one-line entries with [signed-by=...].
  signed_by=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk 'BEGIN { RS = "" }
    /URIs:[^\n]*deb\.debian\.org\/debian([ \t\n]|$)/ && match($0, /Signed-By:[ \t]*[^ \t\n]+/) {
      v = substr($0, RSTART, RLENGTH); sub(/Signed-By:[ \t]*/, "", v); print v; exit }')
  if [ -z "$signed_by" ]; then
    signed_by=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
                sed -n 's|^deb .*signed-by=\([^] ]*\).*deb\.debian\.org/debian .*|\1|p' | head -n 1)
  fi
  if [ ! -f "$list" ]; then
    log "adding deb-src for bookworm main in $list"
    {
      echo "Types: deb-src"
      echo "URIs: http://deb.debian.org/debian"
      echo "Suites: bookworm"
      echo "Components: main"
      if [ -n "$signed_by" ]; then echo "Signed-By: $signed_by"; fi
    } | as_root tee "$list" >/dev/null
  fi
  as_root apt-get update -q >/dev/null
  apt-cache showsrc trilinos 2>/dev/null | grep '^Package: trilinos' >/dev/null ||
    die "apt knows no source package 'trilinos' even after adding $list"
}

prepare_kokkos() {
  if [ -f "$kokkos_src/.kelp-patched" ]; then
    log "Kokkos source (cached): $kokkos_src"
    return 0
  fi
  command -v patch >/dev/null || die "'patch' is not installed (apt-get install patch)"
  mkdir -p "$cache_dir"
  local work=$cache_dir/.kokkos-work.$$
  rm -rf "$work"
  mkdir -p "$work/src"
  trap 'rm -rf "$work"; print_times' EXIT

  phase_begin "kokkos: apt deb-src + update"
  ensure_deb_src
  phase_end "kokkos: apt deb-src + update"

  phase_begin "kokkos: download trilinos src"
  # As root, apt's _apt sandbox user cannot write here; download as root without the warning.
  (cd "$work" && apt-get source -q --download-only -o APT::Sandbox::User=root trilinos >/dev/null)
  local orig
  orig=$(find "$work" -maxdepth 1 -name 'trilinos_*.orig.tar.*' | head -n 1)
  [ -n "$orig" ] || die "apt-get source trilinos gave no orig tarball"
  log "downloaded $(basename "$orig") ($(du -m "$orig" | cut -f1) MiB)"
  phase_end "kokkos: download trilinos src"

  phase_begin "kokkos: extract packages/kokkos"
  # Only the packages/kokkos subtree: Trilinos-<tag>/packages/kokkos/... -> src/kokkos/...
  local top
  top=$( (tar -tf "$orig" 2>/dev/null || true) | head -n 1)
  tar -xf "$orig" -C "$work/src" --strip-components=2 "${top%%/*}/packages/kokkos"
  [ -f "$work/src/kokkos/CMakeLists.txt" ] || die "no packages/kokkos in $(basename "$orig")"
  if ! grep -q 'set(Kokkos_VERSION_MINOR 4)' "$work/src/kokkos/CMakeLists.txt" ||
     ! grep -q 'set(Kokkos_VERSION_PATCH 01)' "$work/src/kokkos/CMakeLists.txt"; then
    die "$(basename "$orig") does not hold Kokkos 3.4.1; the patch is for 3.4.1 only"
  fi
  phase_end "kokkos: extract packages/kokkos"

  phase_begin "kokkos: patch"
  (cd "$work/src/kokkos" && patch -p1 --forward --batch --quiet <"$patch_file") ||
    die "patches/kokkos-3.4.1-cuda13.patch does not apply to $(basename "$orig")"
  echo "$(basename "$orig") + patches/kokkos-3.4.1-cuda13.patch" >"$work/src/kokkos/.kelp-patched"
  rm -rf "$kokkos_src"
  mv "$work/src/kokkos" "$kokkos_src"
  rm -rf "$work"
  trap print_times EXIT
  phase_end "kokkos: patch"
  log "Kokkos source: $kokkos_src"
}

find_nvcc() {
  if [ -n "${CUDA_ROOT:-}" ]; then export PATH=$CUDA_ROOT/bin:$PATH; fi
  if ! command -v nvcc >/dev/null 2>&1; then
    [ -x /usr/local/cuda/bin/nvcc ] || die "nvcc not found (set CUDA_ROOT or PATH)"
    export PATH=/usr/local/cuda/bin:$PATH
  fi
  export NVCC_WRAPPER_DEFAULT_COMPILER=${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}
  log "nvcc: $(command -v nvcc) ($(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')), host compiler $NVCC_WRAPPER_DEFAULT_COMPILER"
}

configure_and_build() {
  find_nvcc
  local generator=()
  if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  phase_begin "configure"
  cmake -S "$repo" -B "$build_dir" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper" \
    -DKELP_KOKKOS_SOURCE_DIR="$kokkos_src" \
    -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON \
    -DKokkos_ARCH_"$arch"=ON -DKokkos_CXX_STANDARD=17 \
    -DKELP_ENABLE_PEERS=OFF -DKELP_ENABLE_APPS=ON -DKELP_ENABLE_TESTS=ON \
    "${extra_cmake[@]}"
  phase_end "configure"

  # Keep going past a failing file, so that one run lists every file that nvcc rejects.
  local keep_going=(-k)
  if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' "$build_dir/CMakeCache.txt"; then keep_going=(-k 0); fi
  phase_begin "build (-j$jobs)"
  local rc=0
  cmake --build "$build_dir" --parallel "$jobs" -- "${keep_going[@]}" || rc=$?
  phase_end "build (-j$jobs)"
  [ $rc -eq 0 ] || die "build failed (exit $rc); the errors are above"
}

run_ctest() {
  local dir=$1
  [ -f "$dir/CTestTestfile.cmake" ] || die "$dir has no CTestTestfile.cmake (build first)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  fi
  # Kokkos' OpenMP host space: modest threads, since ctest runs tests side by side.
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} OMP_PROC_BIND=${OMP_PROC_BIND:-false}
  phase_begin "ctest"
  local rc=0
  if command -v ctest >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    (cd "$dir" && ctest --output-on-failure -j "${CTEST_JOBS:-4}" ${CTEST_ARGS:-}) || rc=$?
  else
    # No ctest here: run the test executables one by one (what CTestTestfile.cmake lists).
    log "no ctest on PATH; running $dir/test/kelp_test_* directly"
    local t failed=()
    for t in "$dir"/test/kelp_test_*; do
      [ -x "$t" ] || continue
      echo "---- $(basename "$t")"
      (cd "$dir/test" && KELP_BINARY_DIR=$dir "$t") || failed+=("$(basename "$t")")
    done
    if [ ${#failed[@]} -gt 0 ]; then log "FAILED: ${failed[*]}"; rc=1; fi
  fi
  phase_end "ctest"
  return $rc
}

# Packs what ctest needs on a machine without this one's packages: the build tree's executables
# (stripped) and CTest files, and the non-glibc shared libraries they load.
make_bundle() {
  phase_begin "bundle"
  local stage=$carry_dir/.stage rel
  rel=${build_dir#"$repo"/}
  [ "$rel" != "$build_dir" ] || die "--bundle needs a build dir inside the repository"
  rm -rf "$carry_dir"
  mkdir -p "$stage/$rel" "$stage/lib"
  (cd "$build_dir" && find . -path ./kokkos -prune -o -path '*/CMakeFiles' -prune -o \
     -path ./install -prune -o -path ./downstream -prune -o \
     -type f \( -name CTestTestfile.cmake -o -perm -u+x \) -print) |
  while read -r f; do
    mkdir -p "$stage/$rel/$(dirname "$f")"
    cp "$build_dir/$f" "$stage/$rel/$f"
    if [ "$(head -c4 "$build_dir/$f" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then  # ELF
      strip --strip-unneeded "$stage/$rel/$f" || true
    fi
  done
  # Shared libraries outside glibc, libstdc++/libgcc and the driver (the device image has those).
  # (ldd fails on scripts among the executables: that is not an error here)
  find "$stage/$rel" -type f -perm -u+x -print0 | { xargs -0 -r ldd 2>/dev/null || true; } |
    awk '/=> \// { print $3 }' | sort -u |
    grep -Ev '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  echo "$repo" >"$stage/source_dir"
  echo "$rel" >"$stage/build_rel"
  tar -C "$stage" -cJf "$carry_dir/bundle.tar.xz" .
  rm -rf "$stage"
  phase_end "bundle"
  log "bundle: $carry_dir/bundle.tar.xz ($(du -m "$carry_dir/bundle.tar.xz" | cut -f1) MiB)"
  du -sb "$repo" --exclude=.git --exclude='build*' 2>/dev/null | awk '{ printf "build_cuda: repository without build dirs: %.1f MiB\n", $1 / 1048576 }' || true
}

# On the device machine: the bundle's absolute paths (the build dir, test/data, the apps) point
# into the checkout it was built from; make that path lead to this checkout, then run ctest.
run_bundle() {
  local bundle=$carry_dir/bundle.tar.xz src rel
  [ -f "$bundle" ] || die "no $bundle (carry build-cuda-carry)"
  phase_begin "unpack bundle"
  local stage=$carry_dir/.unpacked
  rm -rf "$stage"
  mkdir -p "$stage"
  if command -v xz >/dev/null 2>&1; then
    tar -C "$stage" -xJf "$bundle"
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$bundle" "$stage"
  fi
  src=$(cat "$stage/source_dir")
  rel=$(cat "$stage/build_rel")
  rm -rf "${repo:?}/$rel"
  mkdir -p "$(dirname "$repo/$rel")"
  mv "$stage/$rel" "$repo/$rel"
  if [ "$src" != "$repo" ]; then
    if [ -e "$src" ] && [ "$(cd "$src" && pwd -P)" != "$(cd "$repo" && pwd -P)" ]; then
      die "$src exists here and is not this checkout"
    fi
    mkdir -p "$(dirname "$src")"
    ln -sfn "$repo" "$src"
  fi
  export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if ! command -v mpiexec >/dev/null 2>&1; then
    log "no mpiexec here: skipping the tests labelled mpi"
    CTEST_ARGS="-LE mpi ${CTEST_ARGS:-}"
  fi
  phase_end "unpack bundle"
  run_ctest "$repo/$rel"
}

case "$mode" in
  # The path must be the last line (scripts/build_kokkos.sh reads it): the phase times go first.
  kokkos-source) prepare_kokkos; print_times; trap - EXIT; echo "$kokkos_src" ;;
  compile-only) prepare_kokkos; configure_and_build ;;
  test) prepare_kokkos; configure_and_build; run_ctest "$build_dir" ;;
  test-only) run_ctest "$build_dir" ;;
  bundle) prepare_kokkos; configure_and_build; make_bundle ;;
  run-bundle) run_bundle ;;
esac

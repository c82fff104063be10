#pragma once
/// A cheap fingerprint of a CRS pattern, so setup_numeric can tell that it got a matrix with a
/// different pattern from the one setup_symbolic analysed (as PETSc's PCSetUp compares the
/// matrix's nonzero state).

#include <cstdint>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp {

/// Shape plus position-weighted hashes of row_map and of the column indices. Both arrays count:
/// [[a,0],[0,b]] and [[0,0],[a,b]] have the same entries {0, 1} and differ only in row_map.
/// Equal patterns give equal fingerprints; different ones almost surely differ. One pass over
/// row_map and one over entries.
struct PatternFingerprint {
  long long num_rows = -1;
  long long num_cols = -1;
  long long nnz = -1;
  std::uint64_t row_map_hash = 0;
  std::uint64_t entries_hash = 0;
  bool operator==(const PatternFingerprint& o) const {
    return num_rows == o.num_rows && num_cols == o.num_cols && nnz == o.nnz &&
           row_map_hash == o.row_map_hash && entries_hash == o.entries_hash;
  }
  bool operator!=(const PatternFingerprint& o) const { return !(*this == o); }
};

namespace impl {
/// SplitMix64 finaliser: a cheap bijective mix, so that a sum of mixed (position, value) pairs
/// changes when any value moves, and swapped or shifted values do not cancel out.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace impl

namespace impl {
/// The two hashes of pattern_fingerprint as named functors: the fingerprint is taken of the same
/// matrix type in many .cpp files, where nvcc's extended lambdas are unsafe (docs/conventions.md).
template <class RowMap, class Ordinal>
struct HashRowMap {
  using value_type = std::uint64_t;
  RowMap row_map;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, std::uint64_t& sum) const {
    sum += mix64(mix64(static_cast<std::uint64_t>(i)) ^ static_cast<std::uint64_t>(row_map(i + 1)));
  }
};
template <class Entries, class Offset>
struct HashEntries {
  using value_type = std::uint64_t;
  Entries entries;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset k, std::uint64_t& sum) const {
    sum += mix64(mix64(static_cast<std::uint64_t>(k)) ^ static_cast<std::uint64_t>(entries(k)));
  }
};
}  // namespace impl

/// As pattern_fingerprint(A), the two reductions on the instance exec (which they fence).
template <class Matrix>
PatternFingerprint pattern_fingerprint(const typename Matrix::execution_space& exec, const Matrix& A) {
  using ordinal_type = typename Matrix::ordinal_type;
  using offset_type = typename Matrix::offset_type;
  using execution_space = typename Matrix::execution_space;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  std::uint64_t row_map_hash = 0;
  Kokkos::parallel_reduce("kelp::pattern_fingerprint(row_map)",
                          Kokkos::RangePolicy<execution_space>(exec, 0, A.num_rows()),
                          impl::HashRowMap<std::decay_t<decltype(row_map)>, ordinal_type>{row_map}, row_map_hash);
  std::uint64_t entries_hash = 0;
  Kokkos::parallel_reduce("kelp::pattern_fingerprint(entries)",
                          Kokkos::RangePolicy<execution_space>(exec, 0, A.nnz()),
                          impl::HashEntries<std::decay_t<decltype(entries)>, offset_type>{entries}, entries_hash);
  return {A.num_rows(), A.num_cols(), static_cast<long long>(A.nnz()), row_map_hash, entries_hash};
}

template <class Matrix>
PatternFingerprint pattern_fingerprint(const Matrix& A) {
  return pattern_fingerprint(typename Matrix::execution_space(), A);
}

}  // namespace kelp

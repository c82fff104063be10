#pragma once
/// A cheap fingerprint of a CRS pattern, so setup_numeric can tell that it got a matrix with a
/// different pattern from the one setup_symbolic analysed.

#include <cstdint>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp {

/// Shape and a position-weighted checksum of the column indices. Equal patterns give equal
/// fingerprints; different ones almost surely differ. One pass over entries.
struct PatternFingerprint {
  long long num_rows = -1;
  long long num_cols = -1;
  long long nnz = -1;
  std::uint64_t checksum = 0;
  bool operator==(const PatternFingerprint& o) const {
    return num_rows == o.num_rows && num_cols == o.num_cols && nnz == o.nnz && checksum == o.checksum;
  }
  bool operator!=(const PatternFingerprint& o) const { return !(*this == o); }
};

template <class Matrix>
PatternFingerprint pattern_fingerprint(const Matrix& A) {
  using offset_type = typename Matrix::offset_type;
  auto entries = A.entries();
  std::uint64_t checksum = 0;
  Kokkos::parallel_reduce(
      "kelp::pattern_fingerprint",
      Kokkos::RangePolicy<typename Matrix::execution_space>(0, A.nnz()),
      KOKKOS_LAMBDA(const offset_type k, std::uint64_t& sum) {
        // Weighting by position makes moved or swapped entries change the sum.
        sum += (static_cast<std::uint64_t>(entries(k)) + 1u) * (2654435761u * static_cast<std::uint64_t>(k) + 1u);
      },
      checksum);
  return {A.num_rows(), A.num_cols(), static_cast<long long>(A.nnz()), checksum};
}

}  // namespace kelp

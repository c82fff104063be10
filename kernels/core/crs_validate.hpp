#pragma once
/// Structural validation of CRS data supplied by a caller.

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp {

/// What validate_crs checks beyond the always-required structure.
enum class CrsCheck {
  structure,      ///< row_map(0) == 0, monotone, row_map(n) == nnz, columns in [0, num_cols)
  sorted_unique,  ///< structure, plus strictly increasing columns within each row
};

/// Checks that A is a well-formed CRS matrix; throws InvalidArgument naming the first bad row.
/// Cost: one host copy of row_map and entries, O(nnz) host work.
template <class Scalar, class OrdinalT, class OffsetT, class Device>
void validate_crs(const CrsMatrix<Scalar, OrdinalT, OffsetT, Device>& A,
                  CrsCheck check = CrsCheck::structure) {
  auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries());
  const OrdinalT n = A.num_rows();
  KELP_REQUIRE(row_map(0) == 0, InvalidArgument,
               "kelp::validate_crs: row_map(0) = " << row_map(0) << ", expected 0");
  for (OrdinalT i = 0; i < n; ++i) {
    KELP_REQUIRE(row_map(i) <= row_map(i + 1), InvalidArgument,
                 "kelp::validate_crs: row_map is not monotone at row "
                     << i << ": row_map(" << i << ") = " << row_map(i) << " > row_map(" << i + 1
                     << ") = " << row_map(i + 1));
  }
  KELP_REQUIRE(static_cast<std::size_t>(row_map(n)) == entries.extent(0), InvalidArgument,
               "kelp::validate_crs: row_map(" << n << ") = " << row_map(n) << " but entries has "
                                              << entries.extent(0) << " elements");
  for (OrdinalT i = 0; i < n; ++i) {
    for (OffsetT k = row_map(i); k < row_map(i + 1); ++k) {
      const OrdinalT j = entries(k);
      KELP_REQUIRE(j >= 0 && j < A.num_cols(), InvalidArgument,
                   "kelp::validate_crs: row " << i << " has column index " << j
                       << " outside [0, " << A.num_cols() << ")");
      KELP_REQUIRE(check != CrsCheck::sorted_unique || k == row_map(i) || entries(k - 1) < j,
                   InvalidArgument,
                   "kelp::validate_crs: row " << i << " is not sorted with unique columns: column "
                       << entries(k - 1) << " is followed by " << j);
    }
  }
}

}  // namespace kelp

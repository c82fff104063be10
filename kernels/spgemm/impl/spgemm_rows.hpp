#pragma once
/// What every SpGEMM accumulator shares: the operands as views, and the rows of B that row i of
/// C combines.
///
/// Row i of C is  C_i = gamma * B_i + delta_i * sum_k A(i,k) * B_k  with
///   plain product:  gamma = 0 (B_i not part of the row), delta_i = 1;
///   Jacobi-fused:   gamma = 1,                          delta_i = -omega / D(i,i),
/// so the fused product walks A's row once and never forms D⁻¹A.
/// "Items" of row i are the B rows it visits: item 0 is B_i when `jacobi`, then one per entry
/// of A's row.

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::kernels::impl {

template <class Matrix>
struct SpgemmOperands {
  using Scalar = typename Matrix::scalar_type;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using ConstRowMap = Kokkos::View<const OffsetT*, typename Matrix::device_type>;
  using ConstEntries = Kokkos::View<const OrdinalT*, typename Matrix::device_type>;
  using ConstValues = Kokkos::View<const Scalar*, typename Matrix::device_type>;

  ConstRowMap a_row_map;
  ConstEntries a_entries;
  ConstValues a_values;
  ConstRowMap b_row_map;
  ConstEntries b_entries;
  ConstValues b_values;
  /// delta_i of the Jacobi-fused product (empty for the plain product, where delta = 1).
  ConstValues delta;
  bool jacobi = false;

  SpgemmOperands(const Matrix& A, const Matrix& B, bool jacobi_in,
                 typename Matrix::values_type delta_in = {})
      : a_row_map(A.row_map()), a_entries(A.entries()), a_values(A.values()),
        b_row_map(B.row_map()), b_entries(B.entries()), b_values(B.values()), delta(delta_in),
        jacobi(jacobi_in) {}

  KOKKOS_INLINE_FUNCTION OffsetT num_items(OrdinalT i) const {
    return a_row_map(i + 1) - a_row_map(i) + (jacobi ? 1 : 0);
  }
  /// The row of B that item t of row i visits.
  KOKKOS_INLINE_FUNCTION OrdinalT item_row(OrdinalT i, OffsetT t) const {
    if (jacobi) {
      if (t == 0) return i;
      --t;
    }
    return a_entries(a_row_map(i) + t);
  }
  /// The factor of that B row in C_i (for the numeric phase).
  KOKKOS_INLINE_FUNCTION Scalar item_factor(OrdinalT i, OffsetT t) const {
    if (jacobi) {
      if (t == 0) return Scalar(1);
      return delta(i) * a_values(a_row_map(i) + t - 1);
    }
    return a_values(a_row_map(i) + t);
  }
  /// Number of multiply-adds of row i.
  KOKKOS_INLINE_FUNCTION OffsetT row_products(OrdinalT i) const {
    OffsetT sum = 0;
    const OffsetT n = num_items(i);
    for (OffsetT t = 0; t < n; ++t) {
      const OrdinalT r = item_row(i, t);
      sum += b_row_map(r + 1) - b_row_map(r);
    }
    return sum;
  }
};

/// First position p in [begin, end) with entries(p) >= column (entries sorted there).
template <class Entries, class OffsetT, class OrdinalT>
KOKKOS_INLINE_FUNCTION OffsetT lower_bound(const Entries& entries, OffsetT begin, OffsetT end,
                                           OrdinalT column) {
  while (begin < end) {
    const OffsetT mid = begin + (end - begin) / 2;
    if (entries(mid) < column) {
      begin = mid + 1;
    } else {
      end = mid;
    }
  }
  return begin;
}

}  // namespace kelp::kernels::impl

#pragma once
/// SpGEMM with the dense accumulator: one thread per row of C, and per concurrent thread one
/// array as wide as C (taken with a UniqueToken), as in Gustavson's algorithm.
///  - symbolic (count, then fill): acc(j) holds the stamp of the last row that met column j, so
///    the array is never cleared between rows; the count pass stamps 2i, the fill pass 2i + 1;
///  - numeric: acc(j) = position of column j in C's row i (set from C's entries first), so each
///    multiply-add is one indexed add, and the output columns keep the sorted symbolic order.
/// Memory traffic per product: one B entry and value, one acc read, one C value update (in
/// cache for short rows).

#include "kelp/kernels/spgemm/impl/spgemm_rows.hpp"

namespace kelp::kernels::impl {

template <class Exec, class Matrix, bool Fill>
struct SpgemmDenseSymbolic {
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using Token = Kokkos::Experimental::UniqueToken<Exec, Kokkos::Experimental::UniqueTokenScope::Global>;

  SpgemmOperands<Matrix> ops;
  Kokkos::View<long long*, typename Matrix::device_type> acc;
  long long width;
  Token token;
  Kokkos::View<OffsetT*, typename Matrix::device_type> counts;  // count pass
  typename Matrix::row_map_type c_row_map;                       // fill pass
  typename Matrix::entries_type c_entries;                       // fill pass

  KOKKOS_INLINE_FUNCTION void operator()(const OrdinalT i) const {
    const int id = token.acquire();
    const long long base = static_cast<long long>(id) * width;
    const long long stamp = 2 * static_cast<long long>(i) + (Fill ? 1 : 0);
    const OffsetT out = Fill ? c_row_map(i) : 0;
    OffsetT count = 0;
    const OffsetT items = ops.num_items(i);
    for (OffsetT t = 0; t < items; ++t) {
      const OrdinalT r = ops.item_row(i, t);
      for (OffsetT p = ops.b_row_map(r); p < ops.b_row_map(r + 1); ++p) {
        const OrdinalT j = ops.b_entries(p);
        if (acc(base + j) != stamp) {
          acc(base + j) = stamp;
          if (Fill) c_entries(out + count) = j;
          ++count;
        }
      }
    }
    token.release(id);
    if (!Fill) counts(i) = count;
  }
};

template <class Exec, class Matrix>
struct SpgemmDenseNumeric {
  using Scalar = typename Matrix::scalar_type;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using Token = Kokkos::Experimental::UniqueToken<Exec, Kokkos::Experimental::UniqueTokenScope::Global>;

  SpgemmOperands<Matrix> ops;
  Kokkos::View<long long*, typename Matrix::device_type> acc;
  long long width;
  Token token;
  typename Matrix::row_map_type c_row_map;
  typename Matrix::entries_type c_entries;
  typename Matrix::values_type c_values;

  KOKKOS_INLINE_FUNCTION void operator()(const OrdinalT i) const {
    const int id = token.acquire();
    const long long base = static_cast<long long>(id) * width;
    for (OffsetT k = c_row_map(i); k < c_row_map(i + 1); ++k) {
      acc(base + c_entries(k)) = k;
      c_values(k) = Scalar(0);
    }
    const OffsetT items = ops.num_items(i);
    for (OffsetT t = 0; t < items; ++t) {
      const OrdinalT r = ops.item_row(i, t);
      const Scalar factor = ops.item_factor(i, t);
      for (OffsetT p = ops.b_row_map(r); p < ops.b_row_map(r + 1); ++p) {
        c_values(acc(base + ops.b_entries(p))) += factor * ops.b_values(p);
      }
    }
    token.release(id);
  }
};

}  // namespace kelp::kernels::impl

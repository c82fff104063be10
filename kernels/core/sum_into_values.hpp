#pragma once
/// Assembly into a fixed CRS pattern, inside kernels: CrsAssembler (sum_into_values,
/// replace_values), zero_values, and parallel_assemble, which reports entries outside the pattern.
///
/// A finite-element code builds the pattern once (e.g. crs_from_coo with zeros, or its own
/// arrays through wrap_crs), then at each step zeroes the values and adds element contributions
/// in a parallel loop over elements, on the device when the matrix lives there:
///
///   using Matrix = kelp::CrsMatrix<double>;
///   kelp::zero_values(A);
///   kelp::parallel_assemble("my_code::stiffness", A, num_elements,
///       KOKKOS_LAMBDA(const long long e, const kelp::CrsAssembler<Matrix>& assembler) {
///         int nodes[3];  double Ke[3][3];  ...                 // element e's matrix
///         int missed = 0;
///         for (int a = 0; a < 3; ++a)
///           missed += 3 - assembler.sum_into_values(nodes[a], nodes, Ke[a], 3);
///         return missed;                                        // entries outside the pattern
///       });                                                    // throws if any were
///
/// Several elements add to one entry at the same time, so the additions are atomic.

#include <string>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/error.hpp"

namespace kelp {

/// What CrsAssembler may assume about the order of the columns within each row.
enum class ColumnOrder {
  detect,    ///< check the pattern once at construction (one pass over entries)
  sorted,    ///< the caller promises non-decreasing columns in each row: binary search
  unsorted,  ///< linear search in each row
};

namespace impl {
/// Whether every row of the pattern has non-decreasing columns. Free function: CUDA extended
/// lambdas cannot live in private member functions.
template <class Matrix>
bool rows_are_sorted(const Matrix& A) {
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  long long unsorted_rows = 0;
  Kokkos::parallel_reduce(
      "kelp::CrsAssembler(sortedness)",
      Kokkos::RangePolicy<typename Matrix::execution_space>(0, A.num_rows()),
      KOKKOS_LAMBDA(const Ordinal i, long long& count) {
        for (Offset k = row_map(i) + 1; k < row_map(i + 1); ++k) {
          if (entries(k - 1) > entries(k)) {
            ++count;
            return;
          }
        }
      },
      unsorted_rows);
  return unsorted_rows == 0;
}
}  // namespace impl

/// Device-copyable accessor that adds or writes values at existing entries of a CRS matrix.
///
/// Holds A's row_map, entries and values views (shallow: it writes into A's values, and into the
/// caller's array for a matrix from wrap_crs); copy it into kernels by value. Entries whose
/// column is not in the row's pattern are skipped and counted, never inserted: the pattern is
/// fixed. Misses are counted by all copies together (misses()), with one missed (row, column)
/// kept so that errors can name it.
/// Cost per call: O(n log(row length)) with sorted rows, O(n * row length) otherwise.
template <class Matrix>
class CrsAssembler {
 public:
  using scalar_type = typename Matrix::scalar_type;
  using ordinal_type = typename Matrix::ordinal_type;
  using offset_type = typename Matrix::offset_type;
  using device_type = typename Matrix::device_type;
  using execution_space = typename Matrix::execution_space;

  /// @param[in] A      the matrix whose values are assembled (shallow: shares A's arrays)
  /// @param[in] order  what may be assumed about column order (detect: one check, O(nnz))
  explicit CrsAssembler(const Matrix& A, ColumnOrder order = ColumnOrder::detect)
      : row_map_(A.row_map()),
        entries_(A.entries()),
        values_(A.values()),
        miss_("kelp::CrsAssembler::miss", 3),
        sorted_(order == ColumnOrder::sorted ||
                (order == ColumnOrder::detect && impl::rows_are_sorted(A))),
        num_rows_(A.num_rows()) {}

  /// values(row, cols[j]) += vals[j] for j < n (atomically); returns how many of the n columns
  /// were found in the row. Columns not in the pattern, and rows out of range, are skipped.
  KOKKOS_INLINE_FUNCTION ordinal_type sum_into_values(ordinal_type row, const ordinal_type* cols,
                                                      const scalar_type* vals,
                                                      ordinal_type n) const {
    return update<true>(row, cols, vals, n);  // atomic: several elements share an entry
  }

  /// values(row, cols[j]) = vals[j] for j < n; returns how many of the n columns were found.
  /// When several threads replace one entry, one of their values is kept (whole, not torn).
  KOKKOS_INLINE_FUNCTION ordinal_type replace_values(ordinal_type row, const ordinal_type* cols,
                                                     const scalar_type* vals,
                                                     ordinal_type n) const {
    return update<false>(row, cols, vals, n);
  }

  /// Whether lookups use binary search (rows known to be sorted).
  bool sorted() const { return sorted_; }

  /// How many entries fell outside the pattern since construction (or clear_misses()), in all
  /// calls on all copies of this assembler; row and col receive one of them (-1 when none).
  /// Host call; waits for the kernels that use the assembler.
  long long misses(long long& row, long long& col) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), miss_);
    row = h(0) == 0 ? -1 : h(1);
    col = h(0) == 0 ? -1 : h(2);
    return h(0);
  }
  /// Forgets the recorded misses (host call).
  void clear_misses() const { Kokkos::deep_copy(miss_, 0LL); }

 private:
  /// Adds (Sum) or assigns vals[j] at (row, cols[j]) atomically; counts the columns found and
  /// records the misses.
  template <bool Sum>
  KOKKOS_INLINE_FUNCTION ordinal_type update(ordinal_type row, const ordinal_type* cols,
                                             const scalar_type* vals, ordinal_type n) const {
    ordinal_type found = 0;
    for (ordinal_type j = 0; j < n; ++j) {
      const offset_type k = find(row, cols[j]);
      if (k < 0) {
        record_miss(row, cols[j]);
        continue;
      }
      if constexpr (Sum) {
        Kokkos::atomic_add(&values_(k), vals[j]);
      } else {
        Kokkos::atomic_assign(&values_(k), vals[j]);
      }
      ++found;
    }
    return found;
  }

  /// Position of column col in row (any one, if it appears twice), or -1.
  KOKKOS_INLINE_FUNCTION offset_type find(ordinal_type row, ordinal_type col) const {
    if (row < 0 || row >= num_rows_) return -1;
    offset_type lo = row_map_(row);
    offset_type hi = row_map_(row + 1);
    if (sorted_) {
      while (hi - lo > 8) {  // short ranges: the linear scan below is faster than halving
        const offset_type mid = lo + (hi - lo) / 2;
        const ordinal_type c = entries_(mid);
        if (c == col) return mid;
        if (c < col) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
    }
    for (offset_type k = lo; k < hi; ++k) {
      if (entries_(k) == col) return k;
    }
    return -1;
  }

  /// Counts one miss; the first one also leaves its position (a race between first misses
  /// leaves the position of one of them, which is all the message needs).
  KOKKOS_INLINE_FUNCTION void record_miss(ordinal_type row, ordinal_type col) const {
    if (Kokkos::atomic_fetch_add(&miss_(0), 1LL) == 0) {
      miss_(1) = static_cast<long long>(row);
      miss_(2) = static_cast<long long>(col);
    }
  }

  typename Matrix::row_map_type row_map_;
  typename Matrix::entries_type entries_;
  typename Matrix::values_type values_;
  Kokkos::View<long long*, device_type> miss_;  // count, row, column of the first miss
  bool sorted_;
  ordinal_type num_rows_;
};

/// Sets every stored value of A to zero (the pattern stays), before a new assembly.
template <class Matrix>
void zero_values(const Matrix& A) {
  Kokkos::deep_copy(typename Matrix::execution_space(), A.values(),
                    typename Matrix::scalar_type(0));
  typename Matrix::execution_space().fence();
}

/// Assembles into A's fixed pattern: calls f(i, assembler) for every i in [0, num_items) in a
/// parallel reduction on A's execution space (device kernels on a GPU build), where f adds its
/// contributions with assembler.sum_into_values / replace_values and returns how many entries it
/// could not place (n minus what those calls return). The values are accumulated on top of A's
/// current ones (call zero_values first for a fresh assembly).
/// @param[in] label      names the loop in profiles and in the error message
/// @param[in] num_items  number of elements (or rows, or any unit of work)
/// @param[in] f          device-callable: (long long i, const CrsAssembler<Matrix>&) -> integer
/// @param[in] order      column order of A's rows (see ColumnOrder); detect costs one pass over
///                       A's entries per call, pass sorted (or unsorted) when it is known
/// @throws InvalidArgument after the loop, naming the count and one missed (row, column), when
///         any entry fell outside the pattern (by f's returns, or by the assembler's own count,
///         so a functor that forgets to return its misses is caught too); the entries that
///         were inside are assembled
template <class Matrix, class Functor>
void parallel_assemble(const std::string& label, const Matrix& A, long long num_items,
                       const Functor& f, ColumnOrder order = ColumnOrder::detect) {
  KELP_REQUIRE(num_items >= 0, InvalidArgument,
               "kelp::parallel_assemble(" << label << "): num_items = " << num_items << " < 0");
  const CrsAssembler<Matrix> assembler(A, order);
  long long misses = 0;
  Kokkos::parallel_reduce(
      label,
      Kokkos::RangePolicy<typename Matrix::execution_space, Kokkos::IndexType<long long>>(
          0, num_items),
      KOKKOS_LAMBDA(const long long i, long long& count) {
        count += static_cast<long long>(f(i, assembler));
      },
      misses);
  long long row = -1, col = -1;
  const long long recorded = assembler.misses(row, col);
  if (misses == 0 && recorded == 0) return;
  if (recorded > misses) misses = recorded;
  KELP_THROW(InvalidArgument,
             "kelp::parallel_assemble(" << label << "): " << misses
                 << " entries fall outside the fixed pattern of the " << A.num_rows() << " x "
                 << A.num_cols() << " matrix (nnz " << A.nnz() << "), e.g. row " << row
                 << ", column " << col
                 << "; they were dropped. Rebuild the pattern to include them");
}

}  // namespace kelp

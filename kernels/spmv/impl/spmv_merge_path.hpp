#pragma once
/// Merge-path CRS SpMV/SpMMV for op(A) = A or conj(A) (Merrill & Garland, "Merge-based parallel
/// sparse matrix-vector multiplication", SC'16).
///
/// The work is the merge of the row ends row_map(1..n) with the nonzero indices 0..nnz-1: n + nnz
/// items, cut into chunks of equal size, one per thread, so a long row no longer stalls a thread.
/// A thread finds its start by binary search along its diagonal, finishes the rows that end in
/// its chunk and leaves a carry (row, partial sums) for the row it stops in; a second small
/// kernel adds the carries. beta*y is applied once, by the chunk that finishes the row.

#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/impl/spmv_column_blocks.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"

namespace kelp::kernels::impl {

template <int Width, bool Conj, bool BetaZero, class Matrix, class X, class Y, class CarryValues,
          class CarryRows>
struct MergePathSpmv {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;

  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  std::size_t col0;
  Ordinal num_rows;
  Offset nnz;
  long long items_per_chunk;
  CarryValues carry_values;
  CarryRows carry_rows;

  /// Splits diagonal d of the merge grid into (rows finished, nonzeros consumed).
  KOKKOS_INLINE_FUNCTION void search(const long long d, Ordinal& row, Offset& k) const {
    long long lo = d > static_cast<long long>(nnz) ? d - static_cast<long long>(nnz) : 0;
    long long hi = d < static_cast<long long>(num_rows) ? d : static_cast<long long>(num_rows);
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      if (static_cast<long long>(row_map(mid + 1)) <= d - mid - 1) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    row = static_cast<Ordinal>(lo);
    k = static_cast<Offset>(d - lo);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const long long chunk) const {
    const long long total = static_cast<long long>(num_rows) + static_cast<long long>(nnz);
    const long long d0 = chunk * items_per_chunk < total ? chunk * items_per_chunk : total;
    const long long d1 = d0 + items_per_chunk < total ? d0 + items_per_chunk : total;
    Ordinal i, i_end;
    Offset k, k_end;
    search(d0, i, k);
    search(d1, i_end, k_end);
    Scalar sum[Width] = {};
    for (; i < i_end; ++i) {  // rows that end inside this chunk
      const Offset row_end = row_map(i + 1);
      for (; k < row_end; ++k) accumulate(k, sum);
      for (int j = 0; j < Width; ++j) {
        if (BetaZero) {
          y(i, col0 + j) = alpha * sum[j];
        } else {
          y(i, col0 + j) = beta * y(i, col0 + j) + alpha * sum[j];
        }
        sum[j] = Scalar(0);
      }
    }
    for (; k < k_end; ++k) accumulate(k, sum);  // start of the row the next chunk finishes
    carry_rows(chunk) = i_end;                  // == num_rows: nothing to carry
    for (int j = 0; j < Width; ++j) carry_values(chunk, j) = sum[j];
  }

  KOKKOS_INLINE_FUNCTION void accumulate(const Offset k, Scalar* sum) const {
    const Scalar a = Conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
    const Ordinal c = entries(k);
    for (int j = 0; j < Width; ++j) sum[j] += a * x(c, col0 + j);
  }
};

/// Adds each chunk's carry into its row. Several chunks can carry into one long row: atomics.
template <int Width, class Y, class CarryValues, class CarryRows, class Scalar, class Ordinal>
struct MergePathFixup {
  Y y;
  CarryValues carry_values;
  CarryRows carry_rows;
  Scalar alpha;
  std::size_t col0;
  Ordinal num_rows;
  KOKKOS_INLINE_FUNCTION void operator()(const long long chunk) const {
    const Ordinal row = carry_rows(chunk);
    if (row >= num_rows) return;
    for (int j = 0; j < Width; ++j) Kokkos::atomic_add(&y(row, col0 + j), alpha * carry_values(chunk, j));
  }
};

template <bool Conj, class Matrix, class X, class Y>
struct MergePathLaunch {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  using Ordinal = typename Matrix::ordinal_type;
  const Exec& exec;
  SpmvHandle<Matrix>& handle;
  const Matrix& A;
  const X& x;
  const Y& y;
  Scalar alpha, beta;

  template <int Width, bool BetaZero>
  void run(std::size_t col0) const {
    const long long total = static_cast<long long>(A.num_rows()) + static_cast<long long>(A.nnz());
    const long long items = handle.items_per_chunk();
    const long long num_chunks = (total + items - 1) / items;
    auto carry_values = handle.carry_values(num_chunks, Width);
    auto carry_rows = handle.carry_rows();
    using CarryValues = decltype(carry_values);
    using CarryRows = decltype(carry_rows);
    MergePathSpmv<Width, Conj, BetaZero, Matrix, X, Y, CarryValues, CarryRows> f{
        A.row_map(), A.entries(), A.values(), x,     y,           alpha,       beta,
        col0,        A.num_rows(), A.nnz(),    items, carry_values, carry_rows};
    Kokkos::parallel_for("kelp::kernels::spmv(merge_path)", Kokkos::RangePolicy<Exec>(exec, 0, num_chunks), f);
    Kokkos::parallel_for("kelp::kernels::spmv(merge_path fixup)",
                         Kokkos::RangePolicy<Exec>(exec, 0, num_chunks),
                         MergePathFixup<Width, Y, CarryValues, CarryRows, Scalar, Ordinal>{
                             y, carry_values, carry_rows, alpha, col0, A.num_rows()});
  }

  template <int Width>
  void operator()(std::size_t col0) const {
    if (beta == Scalar(0)) {
      run<Width, true>(col0);
    } else {
      run<Width, false>(col0);
    }
  }
};

/// y = beta*y + alpha*op(A)*x with merge-path load balancing on exec; x, y n x k.
template <bool Conj, class Matrix, class X, class Y>
void spmv_merge_path(const typename Matrix::execution_space& exec, SpmvHandle<Matrix>& handle, typename Matrix::scalar_type alpha,
                     const Matrix& A, const X& x, typename Matrix::scalar_type beta, const Y& y) {
  if (A.num_rows() == 0) return;
  for_each_column_block(x.extent(1), MergePathLaunch<Conj, Matrix, X, Y>{exec, handle, A, x, y, alpha, beta});
}

}  // namespace kelp::kernels::impl

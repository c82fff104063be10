#pragma once
/// Transposed CRS SpMV/SpMMV, op(A) = A^T or A^H, by scattering rows of A into y.
///
/// y is first scaled by beta (set to zero when beta = 0, without reading it); then row i of A
/// adds alpha * op(a_ik) * x_i into y_k. Rows run in parallel, so the adds are atomic unless the
/// execution space has a single thread. Traffic: nnz (value + index) + n offsets + k * (n reads
/// of x + 2 m updates of y), plus the atomics' cost on parallel spaces.

#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/impl/spmv_column_blocks.hpp"

namespace kelp::kernels::impl {

template <class Y, class Scalar>
struct ScaleRows {
  Y y;
  Scalar beta;
  std::size_t num_cols;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    for (std::size_t j = 0; j < num_cols; ++j) {
      y(i, j) = beta == Scalar(0) ? Scalar(0) : beta * y(i, j);
    }
  }
};

template <int Width, bool Conj, bool Atomic, class Matrix, class X, class Y>
struct TransposeScatter {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;
  X x;
  Y y;
  Scalar alpha;
  std::size_t col0;

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    Scalar xi[Width];
    for (int j = 0; j < Width; ++j) xi[j] = alpha * x(i, col0 + j);
    const Offset end = row_map(i + 1);
    for (Offset k = row_map(i); k < end; ++k) {
      const Scalar a = Conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
      const Ordinal c = entries(k);
      for (int j = 0; j < Width; ++j) {
        if (Atomic) {
          Kokkos::atomic_add(&y(c, col0 + j), a * xi[j]);
        } else {
          y(c, col0 + j) += a * xi[j];
        }
      }
    }
  }
};

template <bool Conj, class Matrix, class X, class Y>
struct TransposeLaunch {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  const Exec& exec;
  const Matrix& A;
  const X& x;
  const Y& y;
  Scalar alpha;

  template <int Width, bool Atomic>
  void run(std::size_t col0) const {
    Kokkos::parallel_for("kelp::kernels::spmv(transpose)", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows()),
                         TransposeScatter<Width, Conj, Atomic, Matrix, X, Y>{
                             A.row_map(), A.entries(), A.values(), x, y, alpha, col0});
  }

  template <int Width>
  void operator()(std::size_t col0) const {
    if (exec.concurrency() == 1) {
      run<Width, false>(col0);
    } else {
      run<Width, true>(col0);
    }
  }
};

/// y = beta*y + alpha*op(A)*x with op(A) = A^T (Conj = false) or A^H (Conj = true), on exec.
template <bool Conj, class Matrix, class X, class Y>
void spmv_transpose(const typename Matrix::execution_space& exec, typename Matrix::scalar_type alpha, const Matrix& A, const X& x,
                    typename Matrix::scalar_type beta, const Y& y) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  if (beta != Scalar(1)) {
    Kokkos::parallel_for("kelp::kernels::spmv(transpose scale)",
                         Kokkos::RangePolicy<Exec>(exec, 0, y.extent(0)),
                         ScaleRows<Y, Scalar>{y, beta, y.extent(1)});
  }
  if (A.num_rows() == 0 || alpha == Scalar(0)) return;
  for_each_column_block(x.extent(1), TransposeLaunch<Conj, Matrix, X, Y>{exec, A, x, y, alpha});
}

}  // namespace kelp::kernels::impl

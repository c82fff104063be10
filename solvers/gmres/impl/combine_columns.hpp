#pragma once
/// y = V(:, 0:k) c (overwrite) or y += V(:, 0:k) c: the "small dense vector times a block of
/// basis vectors" of Krylov methods (GMRES's Gram-Schmidt correction and solution update).

#include <cstddef>

#include <Kokkos_Core.hpp>

#include "kelp/kernels/blas1/gram.hpp"

namespace kelp::solvers::impl {

/// The kernel of combine_columns: work item t covers rows [t * rows, (t + 1) * rows) (see
/// kernels::column_sweep_rows). Each y(i) gets basis(i, j) c(j) added in the order j = 0..k-1
/// whatever the blocking, so the result does not depend on the execution space.
/// A named functor: CUDA extended lambdas cannot live in private member functions, and a lambda
/// in a helper template instantiated in several .cpp files is unsafe (docs/conventions.md, 11).
template <class Basis, class Coefficients, class Y>
struct CombineColumns {
  using Scalar = typename Y::non_const_value_type;
  Basis basis;
  Coefficients c;
  Y y;
  std::size_t k, rows, n;
  bool overwrite;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t item) const {
    if (rows == 1) {  // one row per thread (GPUs): the sum stays in a register
      Scalar sum = overwrite ? Scalar(0) : y(item);
      for (std::size_t j = 0; j < k; ++j) sum += basis(item, j) * c(j);
      y(item) = sum;
      return;
    }
    // A block of rows (host threads): four columns per sweep, y's block in L1 between sweeps.
    const std::size_t begin = item * rows;
    const std::size_t end = n - begin < rows ? n : begin + rows;
    if (overwrite) {
      for (std::size_t i = begin; i < end; ++i) y(i) = Scalar(0);
    }
    std::size_t j = 0;
    for (; j + 4 <= k; j += 4) {
      const Scalar c0 = c(j), c1 = c(j + 1), c2 = c(j + 2), c3 = c(j + 3);
      for (std::size_t i = begin; i < end; ++i) {
        y(i) = y(i) + basis(i, j) * c0 + basis(i, j + 1) * c1 + basis(i, j + 2) * c2 +
               basis(i, j + 3) * c3;
      }
    }
    for (; j < k; ++j) {
      const Scalar cj = c(j);
      for (std::size_t i = begin; i < end; ++i) y(i) = y(i) + basis(i, j) * cj;
    }
  }
};

/// One pass over y and the first k columns of basis; c is a device vector of length >= k.
/// overwrite = true does not read y. y may be a later column of basis (never one of the first k).
template <class Basis, class Coefficients, class Y>
void combine_columns(const Basis& basis, const Coefficients& c, std::size_t k, const Y& y,
                     bool overwrite) {
  using Exec = typename Y::execution_space;
  constexpr std::size_t rows = kernels::column_sweep_rows<Exec>();
  const std::size_t n = y.extent(0);
  Kokkos::parallel_for("kelp::solvers::combine_columns",
                       Kokkos::RangePolicy<Exec>(0, (n + rows - 1) / rows),
                       CombineColumns<Basis, Coefficients, Y>{basis, c, y, k, rows, n, overwrite});
}

}  // namespace kelp::solvers::impl

#pragma once
/// y = V(:, 0:k) c (overwrite) or y += V(:, 0:k) c: the "small dense vector times a block of
/// basis vectors" of Krylov methods (GMRES's Gram-Schmidt correction and solution update).

#include <cstddef>

#include <Kokkos_Core.hpp>

namespace kelp::solvers::impl {

/// One pass over y and the first k columns of basis; c is a device vector of length >= k.
/// overwrite = true does not read y. y may be a later column of basis (never one of the first k).
/// Free function: CUDA extended lambdas cannot live in private member functions.
template <class Basis, class Coefficients, class Y>
void combine_columns(const Basis& basis, const Coefficients& c, std::size_t k, const Y& y,
                     bool overwrite) {
  using Scalar = typename Y::non_const_value_type;
  Kokkos::parallel_for(
      "kelp::solvers::combine_columns",
      Kokkos::RangePolicy<typename Y::execution_space>(0, y.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        Scalar sum = overwrite ? Scalar(0) : y(i);
        for (std::size_t j = 0; j < k; ++j) sum += basis(i, j) * c(j);
        y(i) = sum;
      });
}

}  // namespace kelp::solvers::impl

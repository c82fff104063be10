#pragma once
// Random inputs of a product y = alpha op(A) x + beta y, k columns in a given layout: host copies
// kept for the sequential reference, device copies for the kernel under test, y NaN-poisoned when
// beta = 0 (the kernel must not read it). Shared by the CRS, SELL and stencil SpMV tests.
#include <Kokkos_Core.hpp>
#include <random>
#include <vector>

#include "kelp/kernels/core/types.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::test {

/// Column j of a rank-2 host view as a std::vector (the reference works on one column).
template <class HostView>
std::vector<typename HostView::non_const_value_type> column(const HostView& v, int j) {
  std::vector<typename HostView::non_const_value_type> c(v.extent(0));
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = v(i, j);
  return c;
}

template <class Scalar, class Layout>
struct SpmvInputs {
  Kokkos::View<Scalar**, Layout, HostDevice> x_host, y_host;  // the inputs, for the reference
  Kokkos::View<Scalar**, Layout> x, y;                        // the kernel's copies (y is written)
};

/// n_in x columns random x and n_out x columns random y (from seed), y poisoned when beta_is_zero.
template <class Scalar, class Layout>
SpmvInputs<Scalar, Layout> random_spmv_inputs(int n_in, int n_out, int columns, unsigned seed,
                                              bool beta_is_zero) {
  std::mt19937 rng(seed);
  using Host = Kokkos::View<Scalar**, Layout, HostDevice>;
  using Device = Kokkos::View<Scalar**, Layout>;
  SpmvInputs<Scalar, Layout> in{Host("x", n_in, columns), Host("y", n_out, columns),
                                Device("x", n_in, columns), Device("y", n_out, columns)};
  for (int i = 0; i < n_in; ++i)
    for (int j = 0; j < columns; ++j) in.x_host(i, j) = random_scalar<Scalar>(rng);
  for (int i = 0; i < n_out; ++i)
    for (int j = 0; j < columns; ++j) in.y_host(i, j) = random_scalar<Scalar>(rng);
  if (beta_is_zero) poison(in.y_host);
  Kokkos::deep_copy(in.x, in.x_host);
  Kokkos::deep_copy(in.y, in.y_host);
  return in;
}

}  // namespace kelp::test

#pragma once
// The true relative residual of a solve, computed here on the host, sequentially and in double
// precision (complex<double> for complex Scalars), independently of the library's kernels:
// tests never trust a solver's own report.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <vector>

#include "test/support/reference.hpp"

namespace kelp::test {

/// ||b - A x||_2 / ||b||_2 (b = 0: ||A x||_2, so a zero solution gives 0).
template <class Matrix, class B, class X>
double reference_relative_residual(const Matrix& A, const B& b, const X& x) {
  const auto host_A = to_host_crs(A);
  const auto host_b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  const auto host_x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  double rr = 0, bb = 0;
  for (int i = 0; i < host_A.num_rows; ++i) {
    Kokkos::complex<double> r = to_complex_double(host_b(i));
    for (long long k = host_A.row_map[i]; k < host_A.row_map[i + 1]; ++k) {
      r -= to_complex_double(host_A.values[k]) * to_complex_double(host_x(host_A.entries[k]));
    }
    rr += Kokkos::real(r) * Kokkos::real(r) + Kokkos::imag(r) * Kokkos::imag(r);
    bb += std::pow(Kokkos::abs(to_complex_double(host_b(i))), 2);
  }
  return bb > 0 ? std::sqrt(rr) / std::sqrt(bb) : std::sqrt(rr);
}

}  // namespace kelp::test

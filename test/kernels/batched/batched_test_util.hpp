#pragma once
// Helpers of the batched kernel tests: Eigen references for Kelp's batch views, random problems.
#include <Eigen/Core>
#include <Kokkos_Core.hpp>
#include <complex>
#include <random>
#include <type_traits>
#include <vector>

#include "kelp/kernels/batched/batched_lu.hpp"
#include "test/support/dense_oracles.hpp"

namespace kelp::test::batched {

using kernels::batched::BatchMatrices;
using kernels::batched::BatchVectors;
using kernels::batched::Mode;

template <class S>
struct EigenScalarOf {
  using type = S;
};
template <>
struct EigenScalarOf<Kokkos::complex<double>> {
  using type = std::complex<double>;
};
template <class S>
using EScalar = typename EigenScalarOf<S>::type;
template <class S>
using EMatrix = Eigen::Matrix<EScalar<S>, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using EVector = Eigen::Matrix<EScalar<S>, Eigen::Dynamic, 1>;

template <class S>
EScalar<S> to_eigen(const S& s) {
  if constexpr (std::is_same<S, Kokkos::complex<double>>::value) {
    return {s.real(), s.imag()};
  } else {
    return s;
  }
}
template <class S>
S from_eigen(const EScalar<S>& s) {
  if constexpr (std::is_same<S, Kokkos::complex<double>>::value) {
    return S(s.real(), s.imag());
  } else {
    return s;
  }
}

/// Uniform in [-1, 1] (both parts for complex).
template <class S>
EScalar<S> random_entry(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  if constexpr (std::is_same<S, Kokkos::complex<double>>::value) {
    const double re = u(rng);
    return {re, u(rng)};
  } else {
    return static_cast<S>(u(rng));
  }
}

template <class S>
EMatrix<S> random_matrix(int m, int n, std::mt19937& rng) {
  EMatrix<S> A(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = random_entry<S>(rng);
  return A;
}

template <class S>
BatchMatrices<S> to_batch(const std::vector<EMatrix<S>>& mats, int m, int n) {
  BatchMatrices<S> A("A", mats.size(), m, n);
  auto h = Kokkos::create_mirror_view(A);
  for (std::size_t p = 0; p < mats.size(); ++p)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) h(p, i, j) = from_eigen<S>(mats[p](i, j));
  Kokkos::deep_copy(A, h);
  return A;
}
template <class S>
BatchVectors<S> to_batch(const std::vector<EVector<S>>& vecs, int n) {
  BatchVectors<S> x("x", vecs.size(), n);
  auto h = Kokkos::create_mirror_view(x);
  for (std::size_t p = 0; p < vecs.size(); ++p)
    for (int i = 0; i < n; ++i) h(p, i) = from_eigen<S>(vecs[p](i));
  Kokkos::deep_copy(x, h);
  return x;
}
template <class S>
EMatrix<S> problem(const BatchMatrices<S>& A, int p) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
  EMatrix<S> out(A.extent(1), A.extent(2));
  for (int i = 0; i < out.rows(); ++i)
    for (int j = 0; j < out.cols(); ++j) out(i, j) = to_eigen(h(p, i, j));
  return out;
}
template <class S>
EVector<S> problem(const BatchVectors<S>& x, int p) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  EVector<S> out(x.extent(1));
  for (int i = 0; i < out.rows(); ++i) out(i) = to_eigen(h(p, i));
  return out;
}

/// Relative tolerance for problems of dimension n in S's precision.
template <class S>
double tolerance(int n) {
  const double eps = std::is_same<S, float>::value ? 1.2e-7 : 2.2e-16;
  return 200.0 * (n + 1) * eps;
}

/// ||a - b||_max / max(1, ||b||_max).
template <class M>
double relative_difference(const M& a, const M& b) {
  if (a.size() == 0) return 0;
  const double scale = std::max(1.0, static_cast<double>(b.cwiseAbs().maxCoeff()));
  return static_cast<double>((a - b).cwiseAbs().maxCoeff()) / scale;
}

inline const std::vector<Mode>& all_modes() {
  static const std::vector<Mode> modes = {Mode::serial, Mode::team, Mode::team_vector};
  return modes;
}

/// Odd sizes 1..33 (and 2, 8, 16: powers of two around a vector length), 0 x 0 too.
inline const std::vector<int>& test_sizes() {
  static const std::vector<int> sizes = {0, 1, 2, 3, 5, 8, 9, 16, 17, 33};
  return sizes;
}

}  // namespace kelp::test::batched

// LOBPCG's dense Rayleigh-Ritz step with Eigen (see impl/rayleigh_ritz.hpp). Compiled without
// Kokkos and with EIGEN_NO_CUDA, so that nvcc builds never see Eigen's device code.
#include "kelp/solvers/lobpcg/impl/rayleigh_ritz.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

namespace kelp::solvers::impl {
namespace {

template <class S>
RayleighRitzInfo solve(int m, int k, const S* ga, const S* gb, bool largest, double drop_tolerance,
                       double* theta, S* c) {
  using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  RayleighRitzInfo info;
  Matrix GA(m, m), GB(m, m);
  // Hermitian from the upper triangles: the lower ones were never computed.
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i <= j; ++i) {
      GA(i, j) = ga[i + m * j];
      GB(i, j) = gb[i + m * j];
      GA(j, i) = Eigen::numext::conj(GA(i, j));
      GB(j, i) = Eigen::numext::conj(GB(i, j));
    }
    GA(j, j) = Eigen::numext::real(GA(j, j));
    GB(j, j) = Eigen::numext::real(GB(j, j));
  }
  if (!GA.allFinite() || !GB.allFinite()) {
    info.status = 1;
    return info;
  }
  Eigen::VectorXd d(m);
  for (int j = 0; j < m; ++j) {
    const double b = Eigen::numext::real(GB(j, j));
    if (!(b > 0)) {
      info.status = 1;
      return info;
    }
    d(j) = 1 / std::sqrt(b);
  }
  const Matrix scaled = d.asDiagonal() * GB * d.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Matrix> gram(scaled);
  if (gram.info() != Eigen::Success) {
    info.status = 1;
    return info;
  }
  const Eigen::VectorXd& s = gram.eigenvalues();  // ascending
  const double s_max = s(m - 1);
  info.condition = s(0) > 0 ? s_max / s(0) : std::numeric_limits<double>::infinity();
  if (!(s_max > 0)) {
    info.status = 1;
    return info;
  }
  int first = 0;  // eigenvalues below the threshold: dependent directions, dropped
  while (first < m && s(first) <= drop_tolerance * s_max) ++first;
  info.rank = m - first;
  if (info.rank < k) {
    info.status = 2;
    return info;
  }
  Matrix T = d.asDiagonal() * gram.eigenvectors().rightCols(info.rank);
  for (int j = 0; j < info.rank; ++j) T.col(j) /= std::sqrt(s(first + j));
  Matrix reduced = T.adjoint() * GA * T;
  reduced = (reduced + reduced.adjoint()).eval() * 0.5;
  Eigen::SelfAdjointEigenSolver<Matrix> ritz(reduced);
  if (ritz.info() != Eigen::Success) {
    info.status = 1;
    return info;
  }
  for (int j = 0; j < k; ++j) {
    const int col = largest ? info.rank - 1 - j : j;
    theta[j] = ritz.eigenvalues()(col);
    const Eigen::Matrix<S, Eigen::Dynamic, 1> cj = T * ritz.eigenvectors().col(col);
    for (int i = 0; i < m; ++i) c[i + m * j] = cj(i);
  }
  return info;
}

}  // namespace

RayleighRitzInfo rayleigh_ritz(int m, int k, const double* GA, const double* GB, bool largest,
                               double drop_tolerance, double* theta, double* C) {
  return solve(m, k, GA, GB, largest, drop_tolerance, theta, C);
}

RayleighRitzInfo rayleigh_ritz(int m, int k, const std::complex<double>* GA,
                               const std::complex<double>* GB, bool largest, double drop_tolerance,
                               double* theta, std::complex<double>* C) {
  return solve(m, k, GA, GB, largest, drop_tolerance, theta, C);
}

}  // namespace kelp::solvers::impl

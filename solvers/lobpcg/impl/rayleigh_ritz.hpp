#pragma once
/// LOBPCG's small dense Rayleigh-Ritz problem, solved on the host with Eigen in
/// solvers/lobpcg/rayleigh_ritz.cpp (compiled apart, with EIGEN_NO_CUDA, so that no Kokkos or
/// CUDA translation unit includes Eigen). Plain host arrays in and out.
///
/// Given the Gram matrices GA = V^H A V and GB = V^H B V (m x m, Hermitian, column-major; only
/// the upper triangles are read) of a basis V, it solves GA c = theta GB c by SVQB
/// (Stathopoulos & Wu 2002; Duersch, Shao, Yang & Gu 2018):
///
///   D  = diag(GB)^{-1/2}                    (columns scaled to unit B-norm)
///   D GB D = U S U^H                        (eigen-decomposition)
///   T  = D U_kept S_kept^{-1/2}             (kept: S_i > drop_tolerance * S_max)
///   T^H GA T = Y Theta Y^H,   C = T Y(:, chosen k)
///
/// so V C is B-orthonormal and (V C)^H A (V C) = Theta(chosen) to rounding. Directions of V
/// that are numerically dependent (S_i below the drop tolerance) are left out.

#include <complex>

namespace kelp::solvers::impl {

/// What the dense Rayleigh-Ritz step found.
struct RayleighRitzInfo {
  /// 0: fine; 1: GB has a non-positive or non-finite diagonal or entries (B not positive
  /// definite on V, or NaN); 2: fewer than k directions survived the drop tolerance.
  int status = 0;
  /// Directions of V kept (rank of GB at the drop tolerance).
  int rank = 0;
  /// S_max / S_min of the scaled GB (infinite when S_min <= 0): how ill-conditioned V is.
  double condition = 0;
};

/// Solves the m x m projected problem and returns the k Ritz values (ascending for smallest,
/// descending for largest) in theta and their coefficient vectors in C (m x k, column-major).
/// @param[in]  m, k            basis size and number of Ritz pairs wanted (k <= m)
/// @param[in]  GA, GB          m x m column-major Gram matrices (upper triangles read)
/// @param[in]  largest         pick the k largest Ritz values instead of the k smallest
/// @param[in]  drop_tolerance  relative eigenvalue threshold of the scaled GB
/// @param[out] theta, C        Ritz values (k) and coefficients (m x k)
RayleighRitzInfo rayleigh_ritz(int m, int k, const double* GA, const double* GB, bool largest,
                               double drop_tolerance, double* theta, double* C);
RayleighRitzInfo rayleigh_ritz(int m, int k, const std::complex<double>* GA,
                               const std::complex<double>* GB, bool largest, double drop_tolerance,
                               double* theta, std::complex<double>* C);

}  // namespace kelp::solvers::impl

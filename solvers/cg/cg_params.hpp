#pragma once
/// The parameters of CG (single-vector and block solves).

namespace kelp::solvers {

struct CgParams {
  /// Iteration limit; 1000 suits well-preconditioned problems up to ~10^7 unknowns.
  int max_iterations = 1000;
  /// Stop when ||b - A x|| <= relative_tolerance * ||b||. Default 1e-8.
  double relative_tolerance = 1e-8;
  /// Or when ||b - A x|| <= absolute_tolerance. Default 0: relative test only.
  double absolute_tolerance = 0.0;
};

}  // namespace kelp::solvers

#pragma once
/// CG preconditioned by one symmetric multicolor Gauss-Seidel / SSOR sweep, with Eisenstat's
/// trick: about one pass over A per iteration instead of two (SpMV + sweep).

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"
#include "kelp/solvers/cg/cg_params.hpp"
#include "kelp/solvers/cg/impl/cg_checks.hpp"
#include "kelp/solvers/cg/impl/eisenstat_kernels.hpp"
#include "kelp/solvers/impl/krylov_common.hpp"
#include "kelp/solvers/reduction.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

/// The same iterates as Cg(A, M) with M a multicolor, symmetric, one-sweep GaussSeidel (SSOR with
/// its omega), to rounding, at about one pass over A per iteration (Eisenstat, "Efficient
/// implementation of a class of preconditioned conjugate gradient methods", SISSC 1981).
///
/// In the color-by-color order of M (rows of one color are not coupled), A = L + D + U, and one
/// symmetric sweep from zero applies M^{-1} = (2 - omega) K~^{-1} (D/omega) K^{-1} with
/// K = D/omega + L, K~ = D/omega + U. With x = K~^{-1} x^, PCG on A with M is PCG on
/// B = K^{-1} A K~^{-1} with the diagonal preconditioner (2 - omega) D/omega, and since
/// A = K + K~ + (D - 2D/omega), B p^ = t + K^{-1}(p^ + (D - 2D/omega) t), t = K~^{-1} p^:
/// one backward solve (reads U) and one forward solve (reads L) per iteration, no SpMV. The
/// forward solve also forms q = A t = L t + (D - D/omega) t + p^ from the same row of L, so the
/// residual of the original system r = b - A x is updated too, and the stopping test is Cg's,
/// on ||r||. Both solves are color by color, a thread per row (long rows are not split into
/// teams here, unlike M's sweeps).
///
/// Everything runs in sweep order on a copy of A split into L and U (positions, one contiguous
/// block per color); b is permuted in and x out. As Cg: convergence is declared only when the TRUE
/// residual b - A x (the original matrix, original order) meets the tolerance, else CG restarts
/// from it; indefinite A or M, breakdown and NaN/Inf are reported in SolveResult::reason.
/// Per iteration: the two half passes over A, one fused update (x, r, r^, z and the two dots),
/// and one host reduction per color in the forward solve (p^H A p).
/// Memory: the split copy of A (values and column positions, without the diagonal), 4 diagonals,
/// the order, and 9 vectors.
/// Real symmetric or complex Hermitian A; the split, the diagonal and omega come from A and M at
/// construction; call setup(A) again after A's values change (same pattern, M set up again).
///
/// Example:
///   auto M = std::make_shared<precond::GaussSeidel<CrsMatrix<double>>>(gs_params);  // multicolor
///   M->setup(A);
///   solvers::EisenstatCg<double> cg(A, M, cg_params);
///   auto result = cg.solve(b, x);
template <class Scalar, class Device = DefaultDevice>
class EisenstatCg {
 public:
  using Matrix = CrsMatrix<Scalar, Ordinal, Offset, Device>;
  using Preconditioner = precond::GaussSeidel<Matrix>;
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using Traits = ScalarTraits<Scalar>;

  /// @param[in] A  the Hermitian positive definite matrix
  /// @param[in] M  a set-up GaussSeidel of A: multicolor, symmetric, 1 sweep (its coloring and
  ///               omega are used)
  /// @throws InvalidArgument for M null, not set up, of another variant / direction / number of
  ///         sweeps, or a coloring that couples two rows of one color; DimensionMismatch when
  ///         the sizes differ; NumericalError for a zero or non-finite diagonal entry (row named)
  EisenstatCg(const Matrix& A, std::shared_ptr<const Preconditioner> M, CgParams params)
      : M_(std::move(M)), params_(params) {
    check_stopping_rules(params, "kelp::solvers::EisenstatCg");
    setup(A);
  }

  /// Rebuilds the split from A (and M's ordering): after A's values changed.
  void setup(const Matrix& A);

  void set_monitor(IterationMonitor monitor) { monitor_ = std::move(monitor); }
  const SolveResult& last_result() const { return last_result_; }
  const CgParams& params() const { return params_; }
  Ordinal num_rows() const { return A_.num_rows(); }
  Ordinal num_colors() const { return static_cast<Ordinal>(color_ptr_.size()) - 1; }
  std::string summary() const { return impl::solver_summary("cg (eisenstat)", params_, *M_); }

  /// Solves A x = b; x is the approximate solution on exit.
  /// @param[in] guess  provided (default): x holds the initial guess; zero: x is not read
  SolveResult solve(const_vector_type b, vector_type x,
                    InitialGuess guess = InitialGuess::provided) const {
    const ProfilingRegion region("kelp::solvers::EisenstatCg::solve");
    last_result_ = solve_impl(b, x, guess);
    return last_result_;
  }

 private:
  SolveResult solve_impl(const_vector_type b, vector_type x, InitialGuess guess) const;
  /// r^ = K^{-1} r, z = (2 - omega) D/omega r^; rho = r^^H z. True (reason set) when it fails.
  bool restart(Scalar& rho, StopReason& reason) const;
  /// x (original order) = the iterate (sweep order); returns ||b - A x|| (into work_.residual).
  double true_residual(const_vector_type b, vector_type x) const;
  void ensure_workspace() const;

  struct Workspace {
    vector_type x, r, rh, z, p, t, w, q, residual;  // residual: original order
  };

  Matrix A_;
  std::shared_ptr<const Preconditioner> M_;
  std::shared_ptr<MatrixOperator<Matrix>> A_op_;  // the true residual, original order
  CgParams params_;
  LocalReduction reduce_;
  IterationMonitor monitor_;
  Kokkos::View<Ordinal*, Device> order_;  // position k holds row order_(k)
  std::vector<Ordinal> color_ptr_;        // positions of color c: color_ptr_[c] .. [c + 1]
  impl::EisenstatTriangle<Scalar, Device> lower_, upper_;
  /// inv = omega / a, e = a (1 - 2 / omega), dq = a (1 - 1 / omega), zs = (2 - omega) a / omega.
  vector_type inv_, e_, dq_, zs_;
  mutable Workspace work_;
  mutable SolveResult last_result_;
};

// Compiled once for the standard scalars, in solvers/eti/ (see kernels/core/eti.hpp).
#define KELP_EISENSTAT_CG_ETI(PREFIX, S) PREFIX template class EisenstatCg<S, DefaultDevice>;
KELP_ETI_FOR_EACH_SCALAR(KELP_EISENSTAT_CG_ETI, extern)

}  // namespace kelp::solvers

#include "kelp/solvers/cg/impl/eisenstat_cg_impl.hpp"

#pragma once
/// Single-reduction (Chronopoulos-Gear) preconditioned CG for Hermitian positive definite A, M.

#include <cmath>
#include <memory>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/cg/cg_params.hpp"
#include "kelp/solvers/cg/impl/cg_checks.hpp"
#include "kelp/solvers/cg/impl/cg_variant_kernels.hpp"
#include "kelp/solvers/impl/krylov_common.hpp"
#include "kelp/solvers/reduction.hpp"
#include "kelp/solvers/solve_result.hpp"
#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// Preconditioned CG in the Chronopoulos-Gear form (Chronopoulos & Gear 1989; Ghysels &
/// Vanroose 2014, Alg. 2): the same iterates as Cg in exact arithmetic, to rounding in practice,
/// with ONE reduction per iteration instead of two. It carries s = A p and w = A u (u = M^{-1} r)
/// and gets p^H A p from the recurrence
///   p_i^H A p_i = delta_i - beta_i gamma_i / alpha_{i-1},  gamma = r^H u, delta = u^H A u,
/// so that gamma, delta and ||r||^2 come from one fused three-value reduction after w = A u.
/// For many ranks (one message per iteration) and GPUs (one synchronisation per iteration).
///
/// Convergence is declared only on the TRUE residual, recomputed when the recurrence meets the
/// tolerance (a restart from it when they disagree), as in Cg; indefinite A or M, breakdown and
/// NaN/Inf are reported in SolveResult::reason. M must be a fixed linear operator.
/// params.variant is not read: this class is the single_reduction variant.
/// Per iteration: 1 operator apply, 1 preconditioner apply (fused into the update for a
/// diagonal M), 1 fused update (reads 6, writes 4 vectors), 1 three-value reduction (6 n words):
/// ~ 16 n words + SpMV + preconditioner, one word per row more than Cg, one reduction fewer.
template <class Scalar, class Device = DefaultDevice, class Reduction = LocalReduction>
class CgSingleReduction : public Operator<Scalar, Device> {
 public:
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using Traits = ScalarTraits<Scalar>;

  /// @param[in] A  the HPD operator; @param[in] M  the fixed HPD preconditioner (~ A^{-1})
  CgSingleReduction(std::shared_ptr<const Operator<Scalar, Device>> A,
                    std::shared_ptr<const Operator<Scalar, Device>> M, CgParams params,
                    Reduction reduce = {})
      : A_(std::move(A)), M_(std::move(M)), params_(params), reduce_(reduce) {
    impl::check_operator_and_preconditioner(
        A_.get(), M_.get(), "kelp::solvers::CgSingleReduction",
        " (an inner solver run to a tolerance); single-reduction CG needs a fixed linear "
        "preconditioner: use flexible CG (variant: flexible)");
    check_stopping_rules(params, "kelp::solvers::CgSingleReduction");
  }

  void set_monitor(IterationMonitor monitor) { monitor_ = std::move(monitor); }
  const SolveResult& last_result() const { return last_result_; }
  /// Run to a tolerance: not a fixed linear operator.
  bool is_variable() const override { return true; }
  const CgParams& params() const { return params_; }

  /// Solves A x = b; x is the approximate solution on exit.
  /// @param[in] guess  provided (default): x holds the initial guess; zero: x is not read
  SolveResult solve(const_vector_type b, vector_type x,
                    InitialGuess guess = InitialGuess::provided) const {
    const ProfilingRegion region("kelp::solvers::CgSingleReduction::solve");
    last_result_ = solve_impl(b, x, guess);
    return last_result_;
  }

  Ordinal num_rows() const override { return A_->num_rows(); }
  Ordinal num_cols() const override { return A_->num_cols(); }
  std::string summary() const override {
    return impl::solver_summary("cg single_reduction", params_, *M_);
  }

 protected:
  /// As an operator: y = alpha * x_cg + beta * y, x_cg solving A x_cg = x from 0.
  void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode) const override {
    ensure_workspace(x.extent(0));
    impl::apply_inverse(*this, x, work_.solution, alpha, beta, y);
  }

 private:
  SolveResult solve_impl(const_vector_type b, vector_type x, InitialGuess guess) const {
    const Ordinal n = A_->num_rows();
    impl::check_solve_dimensions("kelp::solvers::CgSingleReduction::solve", n, b, x);
    ensure_workspace(n);
    const vector_type r = work_.r, u = work_.u, w = work_.w, p = work_.p, s = work_.s;

    SolveResult result;
    if (impl::begin_solve(reduce_, b, x, guess, result)) return result;
    StoppingState stopping(params_, result.rhs_norm);

    if (guess == InitialGuess::zero) {
      Kokkos::deep_copy(r, b);  // r = b - A 0
    } else {
      true_residual(b, x);
    }
    Scalar sums[3];  // gamma = r^H u, delta = u^H w, ||r||^2
    start(sums);
    double r_norm = std::sqrt(Traits::real(sums[2]));
    impl::record_initial_residual(r_norm, stopping, result);
    const double tolerance = stopping.tolerance();
    StopReason reason = StopReason::max_iterations;
    Scalar gamma{}, alpha{}, beta{};
    bool first = true;  // the next update starts the directions: p = u, s = w
    bool stop = stopping.converged(r_norm, reason) || begin(sums, gamma, alpha, reason);

    // A diagonal preconditioner (Jacobi) is fused into the update: u = D^{-1} r in the same pass.
    const const_vector_type inverse_diagonal = M_->pointwise_diagonal();
    const bool fused = inverse_diagonal.extent(0) == static_cast<std::size_t>(n) && n > 0;
    int it = 0;
    while (!stop && it < params_.max_iterations) {
      ++it;
      // p = u + beta p; s = w + beta s; x += alpha p; r -= alpha s (; u = D^{-1} r)
      impl::single_reduction_update(first, alpha, beta, u, const_vector_type(w),
                                    fused ? inverse_diagonal : const_vector_type(), p, s, x, r);
      first = false;
      if (!fused) M_->apply(r, u);  // u = M^{-1} r
      A_->apply(u, w);              // w = A u
      reduce_three(sums);           // the iteration's one reduction
      r_norm = std::sqrt(Traits::real(sums[2]));
      impl::record_iteration(result, monitor_, it, r_norm, result.rhs_norm);
      if (impl::non_finite(r_norm, reason)) break;
      if (r_norm <= tolerance) {
        // The recurrence claims convergence: trust only the true residual; else restart from it.
        r_norm = true_residual(b, x);
        if (stopping.converged(r_norm, reason)) break;
        start(sums);
        first = true;
        if (begin(sums, gamma, alpha, reason)) break;
        continue;
      }
      if (stopping.must_stop(it, r_norm, reason)) break;  // diverged, stagnated, time limit
      const Scalar gamma_new = sums[0];
      if (impl::rho_fails(gamma_new, reason)) break;
      beta = gamma_new / gamma;                                  // beta = gamma_i / gamma_{i-1}
      const Scalar curvature = sums[1] - beta * gamma_new / alpha;  // p_i^H A p_i
      if (impl::curvature_fails(Traits::real(curvature), reason)) break;
      alpha = gamma_new / curvature;
      gamma = gamma_new;
    }

    // The true residual of the returned x, whatever the exit path.
    impl::finish_result(result, it, reason, true_residual(b, x), tolerance);
    result.stopping_residual_norm = result.residual_norm;
    return result;
  }

  /// From the residual in r: u = M^{-1} r, w = A u and the three sums in one reduction.
  void start(Scalar sums[3]) const {
    M_->apply(work_.r, work_.u);
    A_->apply(work_.u, work_.w);
    reduce_three(sums);
  }

  /// gamma = r^H u, delta = u^H A u = u^H w, ||r||^2 = r^H r: one pass, one reduction.
  void reduce_three(Scalar sums[3]) const {
    impl::three_dots(work_.r, work_.u, work_.u, work_.w, work_.r, work_.r, sums);
    reduce_.sum(sums, 3);
  }

  /// The first step's scalars from start()'s sums: gamma, and alpha = gamma / delta (p = u, so
  /// p^H A p = delta). Returns true (and reason) when they cannot start a recurrence.
  bool begin(const Scalar sums[3], Scalar& gamma, Scalar& alpha, StopReason& reason) const {
    gamma = sums[0];
    if (impl::rho_fails(gamma, reason)) return true;
    if (impl::curvature_fails(Traits::real(sums[1]), reason)) return true;
    alpha = gamma / sums[1];
    return false;
  }

  /// r = b - A x; returns ||r||.
  double true_residual(const_vector_type b, const_vector_type x) const {
    return impl::true_residual(*A_, reduce_, b, x, work_.r);
  }

  /// Work vectors, allocated on the first solve and reused while the size stays the same.
  struct Workspace {
    vector_type r, u, w, p, s, solution;
  };
  void ensure_workspace(std::size_t n) const {
    if (work_.r.extent(0) == n && work_.r.data() != nullptr) return;
    const auto make = [n](const char* label) {
      return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    work_ = {make("kelp::CgSingleReduction::r"), make("kelp::CgSingleReduction::u"),
             make("kelp::CgSingleReduction::w"), make("kelp::CgSingleReduction::p"),
             make("kelp::CgSingleReduction::s"), make("kelp::CgSingleReduction::solution")};
  }

  std::shared_ptr<const Operator<Scalar, Device>> A_;
  std::shared_ptr<const Operator<Scalar, Device>> M_;
  CgParams params_;
  Reduction reduce_;
  IterationMonitor monitor_;
  // Mutable: solve() and apply() are const; one object is not for concurrent use.
  mutable Workspace work_;
  mutable SolveResult last_result_;
};

// Compiled once for the standard scalars, in solvers/eti/ (see kernels/core/eti.hpp).
#define KELP_CG_SINGLE_REDUCTION_ETI(PREFIX, S) \
  PREFIX template class CgSingleReduction<S, DefaultDevice, LocalReduction>;
KELP_ETI_FOR_EACH_SCALAR(KELP_CG_SINGLE_REDUCTION_ETI, extern)

}  // namespace kelp::solvers

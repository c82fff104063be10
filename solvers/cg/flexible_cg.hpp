#pragma once
/// Flexible preconditioned CG (Polak-Ribiere beta) for Hermitian positive definite A and a
/// preconditioner that may change between applications.

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

/// Flexible CG (Golub & Ye 1999; Notay 2000, FCG(1)): CG whose beta is the Polak-Ribiere one,
///   beta = z_{i+1}^H (r_{i+1} - r_i) / (r_i^H z_i) = -alpha_i (q_i^H z_{i+1}) / (r_i^H z_i),
/// q_i = A p_i, which makes p_{i+1} A-orthogonal to p_i whatever z_{i+1} = M_{i+1}^{-1} r_{i+1}
/// was, so M may vary between applications (an inner solver run to a tolerance, a few inner CG
/// steps). With a fixed M it gives Cg's iterates in exact arithmetic. Convergence is slower than
/// Cg's when M varies a lot (local orthogonality only), but it does not stall where Cg's
/// Fletcher-Reeves beta loses conjugacy.
///
/// Convergence is declared only on the TRUE residual, as in Cg; indefinite A or M, breakdown and
/// NaN/Inf are reported in SolveResult::reason. params.variant is not read: this class is the
/// flexible variant.
/// Per iteration: 1 operator apply, 1 preconditioner apply, 2 reductions (p^H A p; then r^H z,
/// q^H z and r^H r fused), 3 vector updates: ~ 15 n words + SpMV + preconditioner.
template <class Scalar, class Device = DefaultDevice, class Reduction = LocalReduction>
class FlexibleCg : public Operator<Scalar, Device> {
 public:
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using Traits = ScalarTraits<Scalar>;

  /// @param[in] A  the HPD operator; @param[in] M  the preconditioner (~ A^{-1}), may vary
  FlexibleCg(std::shared_ptr<const Operator<Scalar, Device>> A,
             std::shared_ptr<const Operator<Scalar, Device>> M, CgParams params,
             Reduction reduce = {})
      : A_(std::move(A)), M_(std::move(M)), params_(params), reduce_(reduce) {
    impl::check_operator_and_preconditioner(A_.get(), M_.get(), "kelp::solvers::FlexibleCg",
                                            std::string());
    check_stopping_rules(params, "kelp::solvers::FlexibleCg");
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
    const ProfilingRegion region("kelp::solvers::FlexibleCg::solve");
    last_result_ = solve_impl(b, x, guess);
    return last_result_;
  }

  Ordinal num_rows() const override { return A_->num_rows(); }
  Ordinal num_cols() const override { return A_->num_cols(); }
  std::string summary() const override {
    return impl::solver_summary("cg flexible", params_, *M_);
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
    impl::check_solve_dimensions("kelp::solvers::FlexibleCg::solve", n, b, x);
    ensure_workspace(n);
    const vector_type r = work_.r, z = work_.z, p = work_.p, q = work_.q;

    SolveResult result;
    if (impl::begin_solve(reduce_, b, x, guess, result)) return result;
    StoppingState stopping(params_, result.rhs_norm);

    double r_norm = 0;
    if (guess == InitialGuess::zero) {
      Kokkos::deep_copy(r, b);  // r = b - A 0
      r_norm = result.rhs_norm;
    } else {
      r_norm = true_residual(b, x);
    }
    impl::record_initial_residual(r_norm, stopping, result);
    const double tolerance = stopping.tolerance();
    StopReason reason = StopReason::max_iterations;
    Scalar rho{};
    bool stop = stopping.converged(r_norm, reason) || restart(rho, reason);

    int it = 0;
    while (!stop && it < params_.max_iterations) {
      ++it;
      const double pq = Traits::real(impl::apply_and_dot(*A_, reduce_, p, q));  // q = A p; p^H A p
      if (impl::curvature_fails(pq, reason)) break;
      const Scalar alpha = rho / Scalar(pq);
      kernels::axpby(alpha, p, Scalar(1), x);   // x = x + alpha p
      kernels::axpby(-alpha, q, Scalar(1), r);  // r = r - alpha q
      M_->apply(r, z);                          // z = M_{i+1}^{-1} r (may differ each time)
      Scalar sums[3];                           // r^H z, q^H z, r^H r: one reduction
      impl::three_dots(r, z, q, z, r, r, sums);
      reduce_.sum(sums, 3);
      r_norm = std::sqrt(Traits::real(sums[2]));
      impl::record_iteration(result, monitor_, it, r_norm, result.rhs_norm);
      if (impl::non_finite(r_norm, reason)) break;
      if (r_norm <= tolerance) {
        // The recurrence claims convergence: trust only the true residual; else restart from it.
        r_norm = true_residual(b, x);
        if (stopping.converged(r_norm, reason)) break;
        if (restart(rho, reason)) break;
        continue;
      }
      if (stopping.must_stop(it, r_norm, reason)) break;  // diverged, stagnated, time limit
      const Scalar rho_new = sums[0];
      if (impl::rho_fails(rho_new, reason)) break;
      const Scalar beta = -alpha * sums[1] / rho;  // Polak-Ribiere
      rho = rho_new;
      kernels::axpby(Scalar(1), z, beta, p);  // p = z + beta p
    }

    // The true residual of the returned x, whatever the exit path.
    impl::finish_result(result, it, reason, true_residual(b, x), tolerance);
    result.stopping_residual_norm = result.residual_norm;
    return result;
  }

  /// (Re)starts from the residual in r: z = M^{-1} r, p = z, rho = r^H z. Returns true (and
  /// reason) when it cannot continue.
  bool restart(Scalar& rho, StopReason& reason) const {
    M_->apply(work_.r, work_.z);
    rho = reduce_.dot(work_.r, work_.z);
    if (impl::rho_fails(rho, reason)) return true;
    Kokkos::deep_copy(work_.p, work_.z);
    return false;
  }

  /// r = b - A x; returns ||r||.
  double true_residual(const_vector_type b, const_vector_type x) const {
    return impl::true_residual(*A_, reduce_, b, x, work_.r);
  }

  /// Work vectors, allocated on the first solve and reused while the size stays the same.
  struct Workspace {
    vector_type r, z, p, q, solution;
  };
  void ensure_workspace(std::size_t n) const {
    if (work_.r.extent(0) == n && work_.r.data() != nullptr) return;
    const auto make = [n](const char* label) {
      return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    work_ = {make("kelp::FlexibleCg::r"), make("kelp::FlexibleCg::z"), make("kelp::FlexibleCg::p"),
             make("kelp::FlexibleCg::q"), make("kelp::FlexibleCg::solution")};
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
#define KELP_FLEXIBLE_CG_ETI(PREFIX, S) \
  PREFIX template class FlexibleCg<S, DefaultDevice, LocalReduction>;
KELP_ETI_FOR_EACH_SCALAR(KELP_FLEXIBLE_CG_ETI, extern)

}  // namespace kelp::solvers

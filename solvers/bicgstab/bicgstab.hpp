#pragma once
/// BiCGStab, right-preconditioned, for general square A.

#include <cmath>
#include <memory>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/bicgstab/impl/bicgstab_kernels.hpp"
#include "kelp/solvers/impl/krylov_common.hpp"
#include "kelp/solvers/reduction.hpp"
#include "kelp/solvers/solve_result.hpp"
#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// BiCGStab parameters: the shared stopping rules.
struct BicgstabParams : StoppingRules {};

/// BiCGStab (van der Vorst 1992; Saad, "Iterative Methods", Alg. 7.7), right-preconditioned
/// (x = M^{-1} u), so its residual is the true b - A x.
///
/// Honest breakdown reasons: rho = r_hat^H r = 0 or r_hat^H v = 0 (the shadow residual became
/// orthogonal; detail "rho") and omega = 0 or t = 0 (detail "omega") stop with reason breakdown,
/// unless the true residual already meets the tolerance. s = 0 after the half step is the happy
/// breakdown (x is exact to rounding). Convergence is confirmed on the true residual; when the
/// recurrence drifted, the iteration restarts from the true residual with a new shadow vector.
/// Per iteration: 2 operator and 2 preconditioner applies, 4 reductions. The vector updates are
/// fused with the reductions after them and, for a diagonal preconditioner (Jacobi), with its
/// applications (impl/bicgstab_kernels.hpp): 5 vector kernels per iteration besides A.
template <class Scalar, class Device = DefaultDevice, class Reduction = LocalReduction>
class Bicgstab : public Operator<Scalar, Device> {
 public:
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using Traits = ScalarTraits<Scalar>;

  Bicgstab(std::shared_ptr<const Operator<Scalar, Device>> A,
           std::shared_ptr<const Operator<Scalar, Device>> M, BicgstabParams params,
           Reduction reduce = {})
      : A_(std::move(A)), M_(std::move(M)), params_(params), reduce_(reduce) {
    impl::check_operator_and_preconditioner(
        A_.get(), M_.get(), "kelp::solvers::Bicgstab",
        "; BiCGStab needs a fixed linear preconditioner: use fgmres");
    check_stopping_rules(params, "kelp::solvers::Bicgstab");
  }

  void set_monitor(IterationMonitor monitor) { monitor_ = std::move(monitor); }
  const SolveResult& last_result() const { return last_result_; }
  const BicgstabParams& params() const { return params_; }
  bool is_variable() const override { return true; }

  SolveResult solve(const_vector_type b, vector_type x,
                    InitialGuess guess = InitialGuess::provided) const {
    const ProfilingRegion region("kelp::solvers::Bicgstab::solve");
    last_result_ = solve_impl(b, x, guess);
    return last_result_;
  }

  Ordinal num_rows() const override { return A_->num_rows(); }
  Ordinal num_cols() const override { return A_->num_cols(); }
  std::string summary() const override {
    return impl::solver_summary("bicgstab", params_, *M_);
  }

 protected:
  void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode) const override {
    ensure_workspace(x.extent(0));
    impl::apply_inverse(*this, x, work_.solution, alpha, beta, y);
  }

 private:
  SolveResult solve_impl(const_vector_type b, vector_type x, InitialGuess guess) const {
    const Ordinal n = A_->num_rows();
    impl::check_solve_dimensions("kelp::solvers::Bicgstab::solve", n, b, x);
    ensure_workspace(n);
    const vector_type r = work_.r, r_hat = work_.r_hat, p = work_.p, v = work_.v, s = work_.s,
                      t = work_.t, p_hat = work_.p_hat, s_hat = work_.s_hat;

    SolveResult result;
    if (impl::begin_solve(reduce_, b, x, guess, result)) return result;
    StoppingState stopping(params_, result.rhs_norm);
    double r_norm = true_residual(b, x, r);
    impl::record_initial_residual(r_norm, stopping, result);
    const double tolerance = stopping.tolerance();

    StopReason reason = StopReason::max_iterations;
    bool stop = stopping.converged(r_norm, reason);
    Scalar rho = restart(r, r_hat, p);
    // A diagonal M (Jacobi) is applied inside the fused updates; p_hat is then current except
    // right after a (re)start.
    const const_vector_type inverse_diagonal = M_->pointwise_diagonal();
    const bool diagonal = inverse_diagonal.extent(0) == r.extent(0) && n > 0;
    bool p_hat_current = false;
    int it = 0;
    while (!stop && it < params_.max_iterations) {
      ++it;
      if (rho == Scalar(0)) {
        reason = StopReason::breakdown;
        result.detail = "rho = r_hat^H r = 0";
        break;
      }
      if (!p_hat_current) M_->apply(p, p_hat);
      p_hat_current = false;
      A_->apply(p_hat, v);
      const Scalar rv = reduce_.dot(r_hat, v);
      if (!Traits::is_finite(rv)) {
        reason = StopReason::non_finite;
        break;
      }
      if (rv == Scalar(0)) {
        reason = StopReason::breakdown;
        result.detail = "rho: r_hat^H A M^{-1} p = 0";
        break;
      }
      const Scalar alpha = rho / rv;
      // s = r - alpha v (s_hat = M^{-1} s with it when M is diagonal) and ||s||: one pass
      double s_norm2 = impl::bicgstab_half_step(alpha, const_vector_type(r), const_vector_type(v),
                                                diagonal ? inverse_diagonal : const_vector_type(),
                                                s, s_hat);
      reduce_.sum(&s_norm2, 1);
      const double s_norm = std::sqrt(s_norm2 > 0 ? s_norm2 : 0.0);
      if (s_norm <= tolerance || s_norm == 0) {
        kernels::axpby(alpha, p_hat, Scalar(1), x);  // half step suffices
        impl::record_iteration(result, monitor_, it, s_norm, result.rhs_norm);
        if (s_norm == 0) result.happy_breakdown = true;
        r_norm = true_residual(b, x, r);
        if (stopping.converged(r_norm, reason)) break;
        rho = restart(r, r_hat, p);
        continue;
      }
      if (!diagonal) M_->apply(s, s_hat);
      A_->apply(s_hat, t);
      const auto [ts, tt] = reduce_.dots(t, s, t, t);
      if (!Traits::is_finite(ts) || !Traits::is_finite(tt)) {
        reason = StopReason::non_finite;
        break;
      }
      if (Traits::real(tt) == 0) {
        reason = StopReason::breakdown;
        result.detail = "omega: t = A M^{-1} s = 0";
        break;
      }
      const Scalar omega = ts / tt;
      // x += alpha p_hat + omega s_hat; r = s - omega t; (r_hat^H r, r^H r): one pass
      const auto local = impl::bicgstab_full_step(alpha, omega, const_vector_type(p_hat),
                                                  const_vector_type(s_hat), const_vector_type(s),
                                                  const_vector_type(t), const_vector_type(r_hat), x, r);
      Scalar sums[2] = {local.first, local.second};
      reduce_.sum(sums, 2);
      const Scalar rho_new = sums[0], rr = sums[1];
      r_norm = std::sqrt(Traits::real(rr));
      impl::record_iteration(result, monitor_, it, r_norm, result.rhs_norm);
      if (impl::non_finite(r_norm, reason)) break;
      if (r_norm <= tolerance) {
        r_norm = true_residual(b, x, r);  // trust only the true residual
        if (stopping.converged(r_norm, reason)) break;
        rho = restart(r, r_hat, p);
        continue;
      }
      if (stopping.must_stop(it, r_norm, reason)) break;
      if (omega == Scalar(0)) {
        reason = StopReason::breakdown;
        result.detail = "omega = t^H s / t^H t = 0";
        break;
      }
      const Scalar beta = (rho_new / rho) * (alpha / omega);
      rho = rho_new;
      // p = r + beta (p - omega v) (p_hat = M^{-1} p with it when M is diagonal)
      impl::bicgstab_direction(beta, omega, const_vector_type(r), const_vector_type(v),
                               diagonal ? inverse_diagonal : const_vector_type(), p, p_hat);
      p_hat_current = diagonal;
    }
    impl::finish_result(result, it, reason, true_residual(b, x, r), tolerance);
    if (result.reason == StopReason::breakdown && stopping.converged(result.residual_norm, reason)) {
      result.reason = reason;  // broke down exactly when it had converged
    }
    if (!std::isfinite(result.residual_norm)) result.reason = StopReason::non_finite;
    return result;
  }

  /// Starts the recurrence from r: r_hat = p = r; returns rho = r^H r.
  Scalar restart(const_vector_type r, vector_type r_hat, vector_type p) const {
    Kokkos::deep_copy(r_hat, r);
    Kokkos::deep_copy(p, r);
    return reduce_.dot(r_hat, r);
  }

  double true_residual(const_vector_type b, const_vector_type x, vector_type r) const {
    return impl::true_residual(*A_, reduce_, b, x, r);
  }

  struct Workspace {
    vector_type r, r_hat, p, v, s, t, p_hat, s_hat, solution;
  };
  void ensure_workspace(std::size_t n) const {
    if (work_.r.extent(0) == n && work_.r.data() != nullptr) return;
    const auto make = [n](const char* label) {
      return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    work_ = {make("kelp::Bicgstab::r"),     make("kelp::Bicgstab::r_hat"),
             make("kelp::Bicgstab::p"),     make("kelp::Bicgstab::v"),
             make("kelp::Bicgstab::s"),     make("kelp::Bicgstab::t"),
             make("kelp::Bicgstab::p_hat"), make("kelp::Bicgstab::s_hat"),
             make("kelp::Bicgstab::solution")};
  }

  std::shared_ptr<const Operator<Scalar, Device>> A_;
  std::shared_ptr<const Operator<Scalar, Device>> M_;
  BicgstabParams params_;
  Reduction reduce_;
  IterationMonitor monitor_;
  mutable Workspace work_;
  mutable SolveResult last_result_;
};

#define KELP_BICGSTAB_ETI(PREFIX, S) PREFIX template class Bicgstab<S, DefaultDevice, LocalReduction>;
KELP_ETI_FOR_EACH_SCALAR(KELP_BICGSTAB_ETI, extern)

}  // namespace kelp::solvers

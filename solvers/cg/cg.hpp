#pragma once
/// Preconditioned conjugate gradients for Hermitian positive definite A and M.

#include <cmath>
#include <memory>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/cg/cg_block.hpp"
#include "kelp/solvers/cg/cg_params.hpp"
#include "kelp/solvers/cg/impl/cg_checks.hpp"
#include "kelp/solvers/cg/impl/cg_fused_update.hpp"
#include "kelp/solvers/impl/krylov_common.hpp"
#include "kelp/solvers/null_space.hpp"
#include "kelp/solvers/reduction.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {


/// Preconditioned CG (Hestenes & Stiefel 1952; Saad, "Iterative Methods", Alg. 9.1).
///
/// Convergence is declared only when the TRUE residual b - A x meets the tolerance: when the
/// recurrence residual says so, the true one is recomputed; if it disagrees (rounding drift), CG
/// restarts from the true residual. Detects indefinite A (p^H A p < 0), indefinite M (r^H z < 0),
/// breakdown (r^H z = 0 or p^H A p = 0) and NaN/Inf, and reports them in SolveResult::reason.
/// Singular A with a known null space (set_null_space): b is checked for compatibility first,
/// the residuals and preconditioned residuals are projected off the null space, and x is
/// returned orthogonal to it.
/// Per iteration: 1 operator apply, 1 preconditioner apply, 1 dot + 1 fused pair of dots,
/// 3 vector updates (~ 13 n words + SpMV + preconditioner). Every reduction goes through Reduction.
template <class Scalar, class Device = DefaultDevice, class Reduction = LocalReduction>
class Cg : public Operator<Scalar, Device> {
 public:
  using Base = Operator<Scalar, Device>;
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using const_multivector_type = ConstMultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using Traits = ScalarTraits<Scalar>;

  /// @param[in] A  the HPD operator; @param[in] M  the preconditioner (approximates A^{-1})
  Cg(std::shared_ptr<const Operator<Scalar, Device>> A,
     std::shared_ptr<const Operator<Scalar, Device>> M, CgParams params, Reduction reduce = {})
      : A_(std::move(A)), M_(std::move(M)), params_(params), reduce_(reduce) {
    impl::check_operator_and_preconditioner(
        A_.get(), M_.get(), "kelp::solvers::Cg",
        " (an inner Krylov solver, which is not linear in its right-hand side even for a fixed "
        "number of steps); plain CG needs a fixed linear preconditioner: use a stationary or "
        "Chebyshev inner method, or a flexible method (FlexibleCg, variant: flexible)");
    check_stopping_rules(params, "kelp::solvers::Cg");
    KELP_REQUIRE(params.variant == CgVariant::standard, InvalidArgument,
                 "kelp::solvers::Cg: variant = " << to_string(params.variant)
                     << " is its own class: CgSingleReduction (single_reduction) or FlexibleCg "
                        "(flexible)");
  }

  void set_monitor(IterationMonitor monitor) { monitor_ = std::move(monitor); }
  /// The result of the last solve, including the solves run as an operator (apply), so that a
  /// caller that uses CG as an inner solver or preconditioner can see how it went.
  const SolveResult& last_result() const { return last_result_; }
  /// CG run to a tolerance is not a fixed linear operator: see Operator::is_variable.
  bool is_variable() const override { return true; }
  const CgParams& params() const { return params_; }

  /// Declares span(Z) the null space of the (singular, Hermitian) operator; nullptr removes it.
  /// @throws DimensionMismatch when Z's length differs from the operator's
  void set_null_space(std::shared_ptr<const NullSpace<Scalar, Device>> Z) {
    KELP_REQUIRE(Z == nullptr || Z->num_rows() == A_->num_rows(), DimensionMismatch,
                 "kelp::solvers::Cg::set_null_space: the null space has "
                     << Z->num_rows() << " rows, the operator " << A_->num_rows());
    null_space_ = std::move(Z);
  }

  /// Solves A x = b; x is the approximate solution on exit.
  /// @param[in] guess  provided (default): x holds the initial guess on entry; zero: x is not
  ///                   read (it may hold garbage) and the iteration starts from 0
  SolveResult solve(const_vector_type b, vector_type x,
                    InitialGuess guess = InitialGuess::provided) const {
    const ProfilingRegion region("kelp::solvers::Cg::solve");
    last_result_ = solve_impl(b, x, guess);
    return last_result_;
  }

  /// Solves A X = B for the k columns of B at once (see cg_block.hpp): one block operator and
  /// preconditioner apply and two block reductions per iteration for all columns, with
  /// convergence, stop reason and residual history tracked per column.
  /// @param[in] guess  as for the single-vector solve
  BlockSolveResult solve(const_multivector_type B, multivector_type X,
                         InitialGuess guess = InitialGuess::provided) const {
    const ProfilingRegion region("kelp::solvers::Cg::solve(block)");
    const Ordinal n = A_->num_rows();
    KELP_REQUIRE(static_cast<Ordinal>(B.extent(0)) == n && static_cast<Ordinal>(X.extent(0)) == n &&
                     B.extent(1) == X.extent(1),
                 DimensionMismatch,
                 "kelp::solvers::Cg::solve: dimension mismatch: operator is "
                     << n << " x " << n << ", B is " << B.extent(0) << " x " << B.extent(1)
                     << ", X is " << X.extent(0) << " x " << X.extent(1));
    KELP_REQUIRE(!kelp::impl::memory_overlaps(B, X), InvalidArgument,
                 "kelp::solvers::Cg::solve: X and B overlap in memory; pass the solutions in a "
                 "multi-vector of their own");
    impl::BlockCg<Scalar, Device, Reduction> block(*A_, *M_, params_, reduce_, null_space_.get(),
                                                   monitor_, block_work_);
    last_block_result_ = block.solve(B, X, guess);
    return last_block_result_;
  }
  /// The result of the last block solve.
  const BlockSolveResult& last_block_result() const { return last_block_result_; }

  Ordinal num_rows() const override { return A_->num_rows(); }
  Ordinal num_cols() const override { return A_->num_cols(); }
  std::string summary() const override {
    return impl::solver_summary("cg", params_, *M_);
  }

 protected:
  /// As an operator, CG applies an approximate A^{-1}: y = alpha * x_cg + beta * y, x_cg solving
  /// A x_cg = x from a zero initial guess.
  /// Its SolveResult is kept in last_result().
  void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta, OperatorMode) const override {
    ensure_workspace(x.extent(0));
    impl::apply_inverse(*this, x, work_.solution, alpha, beta, y);
  }

  /// A block of right-hand sides: one block solve (Y = alpha X_cg + beta Y), its result in
  /// last_block_result().
  void apply_block_impl(const_multivector_type x, multivector_type y, Scalar alpha, Scalar beta,
                        OperatorMode) const override {
    if (block_solution_.extent(0) != x.extent(0) || block_solution_.extent(1) != x.extent(1)) {
      block_solution_ = multivector_type(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::Cg::block_solution"),
          x.extent(0), x.extent(1));
    }
    solve(x, block_solution_, InitialGuess::zero);
    kernels::axpby(alpha, block_solution_, beta, y);
  }

 private:
  SolveResult solve_impl(const_vector_type b, vector_type x, InitialGuess guess) const {
    impl::check_solve_dimensions("kelp::solvers::Cg::solve", A_->num_rows(), b, x);
    ensure_workspace(b.extent(0));  // kept between solves: no allocation per call
    const vector_type r = work_.r, z = work_.z, p = work_.p, q = work_.q;

    SolveResult result;  // x = 0 for a zero guess (x is not read)
    if (impl::begin_solve(reduce_, b, x, guess, result)) return result;
    if (null_space_ && !null_space_->is_compatible(b, result.rhs_norm, reduce_)) {
      result.reason = StopReason::incompatible_rhs;
      // Report |b - A x| itself: the projected residual would hide what is wrong.
      result.residual_norm = result.initial_residual_norm = true_residual(b, x, r, false);
      return result;
    }
    // Tolerances, divergence, stagnation and the time limit: the shared rules (stopping.hpp).
    StoppingState stopping(params_, result.rhs_norm);

    // r = b - A x (for a zero guess r = b, without an operator application)
    double r_norm = guess == InitialGuess::zero ? residual_from(b, r) : true_residual(b, x, r);
    impl::record_initial_residual(r_norm, stopping, result);
    const double tolerance = stopping.tolerance();
    Scalar rho{};
    StopReason reason = StopReason::max_iterations;
    bool stop = stopping.converged(r_norm, reason) || restart(r, z, p, rho, reason);

    // A diagonal preconditioner (Jacobi) is fused into the update: one pass instead of four.
    const const_vector_type inverse_diagonal =
        null_space_ ? const_vector_type() : M_->pointwise_diagonal();
    int it = 0;
    while (!stop && it < params_.max_iterations) {
      ++it;
      const double pq = Traits::real(impl::apply_and_dot(*A_, reduce_, p, q));  // q = A p; p^H A p
      if (impl::curvature_fails(pq, reason)) break;
      const Scalar alpha = rho / Scalar(pq);
      const auto [rho_new, rr] = update(alpha, p, q, x, r, z, inverse_diagonal);
      r_norm = std::sqrt(Traits::real(rr));
      impl::record_iteration(result, monitor_, it, r_norm, result.rhs_norm);
      if (impl::non_finite(r_norm, reason)) break;
      if (r_norm <= tolerance) {
        // The recurrence claims convergence: trust only the true residual.
        r_norm = true_residual(b, x, r);
        if (stopping.converged(r_norm, reason)) break;
        if (restart(r, z, p, rho, reason)) break;
        continue;
      }
      if (stopping.must_stop(it, r_norm, reason)) break;  // diverged, stagnated, time limit
      if (impl::rho_fails(rho_new, reason)) break;
      const Scalar beta = rho_new / rho;
      rho = rho_new;
      kernels::axpby(Scalar(1), z, beta, p);               // p = z + beta p
    }

    if (null_space_) null_space_->project(x, reduce_);  // the solution orthogonal to span(Z)
    // Report the true residual of the returned x, whatever the exit path.
    impl::finish_result(result, it, reason, true_residual(b, x, r), tolerance);
    return result;
  }

  /// x += alpha p; r -= alpha q; z = M^{-1} r; returns (r^H z, r^H r), summed over processes.
  /// With a diagonal M (inverse_diagonal not empty) in one fused pass.
  std::pair<Scalar, Scalar> update(Scalar alpha, const_vector_type p, const_vector_type q,
                                   vector_type x, vector_type r, vector_type z,
                                   const_vector_type inverse_diagonal) const {
    if (inverse_diagonal.extent(0) == r.extent(0) && r.extent(0) > 0) {
      auto sums = impl::fused_cg_update(alpha, p, q, inverse_diagonal, x, r, z);
      Scalar values[2] = {sums.first, sums.second};
      reduce_.sum(values, 2);
      return {values[0], values[1]};
    }
    kernels::axpby(alpha, p, Scalar(1), x);              // x = x + alpha p
    kernels::axpby(-alpha, q, Scalar(1), r);             // r = r - alpha q
    M_->apply(r, z);                                     // z = M^{-1} r
    if (null_space_) null_space_->project(z, reduce_);   // keep p off the null space
    return reduce_.dots(r, z, r, r);                     // rho_new = r^H z, rr = r^H r
  }

  /// r = b - A x, projected off the null space when there is one (and `project`); returns ||r||.
  double true_residual(const_vector_type b, vector_type x, vector_type r,
                       bool project = true) const {
    A_->apply(x, r, Scalar(-1), Scalar(0));  // r = -A x
    kernels::axpby(Scalar(1), b, Scalar(1), r);
    if (null_space_ && project) null_space_->project(r, reduce_);
    return reduce_.norm2(r);
  }

  /// r = b (the residual of x = 0), projected like true_residual; returns ||r||.
  double residual_from(const_vector_type b, vector_type r) const {
    Kokkos::deep_copy(r, b);
    if (null_space_) null_space_->project(r, reduce_);
    return reduce_.norm2(r);
  }

  /// (Re)starts the recurrence from residual r: z = M^{-1} r, p = z, rho = r^H z.
  /// Returns true (and sets reason) when it cannot continue.
  bool restart(vector_type r, vector_type z, vector_type p, Scalar& rho, StopReason& reason) const {
    M_->apply(r, z);
    if (null_space_) null_space_->project(z, reduce_);
    rho = reduce_.dot(r, z);
    if (impl::rho_fails(rho, reason)) return true;
    Kokkos::deep_copy(p, z);
    return false;
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
    work_ = {make("kelp::Cg::r"), make("kelp::Cg::z"), make("kelp::Cg::p"), make("kelp::Cg::q"),
             make("kelp::Cg::solution")};
  }

  std::shared_ptr<const Operator<Scalar, Device>> A_;
  std::shared_ptr<const Operator<Scalar, Device>> M_;
  CgParams params_;
  Reduction reduce_;
  IterationMonitor monitor_;
  std::shared_ptr<const NullSpace<Scalar, Device>> null_space_;
  // Mutable: solve() and apply() are const (an Operator is applied through const references), yet
  // reuse their work vectors and record their result. One Cg object is not for concurrent use.
  mutable Workspace work_;
  mutable SolveResult last_result_;
  mutable impl::BlockCgWorkspace<Scalar, Device> block_work_;
  mutable BlockSolveResult last_block_result_;
  mutable multivector_type block_solution_;
};

// Compiled once for the standard scalars, in solvers/eti/ (see kernels/core/eti.hpp).
#define KELP_CG_ETI(PREFIX, S) PREFIX template class Cg<S, DefaultDevice, LocalReduction>;
KELP_ETI_FOR_EACH_SCALAR(KELP_CG_ETI, extern)

}  // namespace kelp::solvers

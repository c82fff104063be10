#pragma once
/// CG on a block of right-hand sides: k independent CG recurrences run in lock step, so each
/// iteration costs one block operator apply (SpMMV), one block preconditioner apply and two
/// block reductions for all columns together (one allreduce each when distributed), instead of
/// k of each. Every column has its own step lengths, tolerance, stop reason and residual
/// history; a column that stops is frozen (its coefficients are 0) while the others go on, as in
/// Ginkgo's CG. As in single-vector CG, convergence is confirmed on the true residual, and a
/// column whose recurrence drifted restarts from its true residual.
///
/// Used through Cg::solve(B, X); this header holds the iteration and its workspace.

#include <algorithm>
#include <cmath>
#include <vector>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/cg/cg_params.hpp"
#include "kelp/solvers/null_space.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

/// What a block solve reports: one SolveResult per column.
struct BlockSolveResult {
  std::vector<SolveResult> columns;
  /// True when every column converged.
  bool converged() const {
    return std::all_of(columns.begin(), columns.end(),
                       [](const SolveResult& r) { return r.converged(); });
  }
  /// The largest iteration count of any column (the number of block iterations run).
  int iterations() const {
    int most = 0;
    for (const auto& c : columns) most = std::max(most, c.iterations);
    return most;
  }
};

namespace impl {

/// Work multi-vectors of a block solve, kept between solves while n and k stay the same.
template <class Scalar, class Device>
struct BlockCgWorkspace {
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  multivector_type R, Z, P, Q, T;
  void ensure(std::size_t n, std::size_t k) {
    if (R.data() != nullptr && R.extent(0) == n && R.extent(1) == k) return;
    const auto make = [n, k](const char* label) {
      return multivector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                              n, k);
    };
    R = make("kelp::Cg::block::R");
    Z = make("kelp::Cg::block::Z");
    P = make("kelp::Cg::block::P");
    Q = make("kelp::Cg::block::Q");
    T = make("kelp::Cg::block::T");
  }
};

/// The lock-step iteration; see the header comment. Arguments are checked by Cg::solve.
template <class Scalar, class Device, class Reduction>
class BlockCg {
 public:
  using Op = Operator<Scalar, Device>;
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using const_multivector_type = ConstMultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using HostScalars = Kokkos::View<Scalar*, Kokkos::HostSpace>;
  using Traits = ScalarTraits<Scalar>;
  using HostNorms = Kokkos::View<typename Traits::magnitude_type*, Kokkos::HostSpace>;

  BlockCg(const Op& A, const Op& M, const CgParams& params, const Reduction& reduce,
          const NullSpace<Scalar, Device>* null_space, const IterationMonitor& monitor,
          BlockCgWorkspace<Scalar, Device>& work)
      : A_(A), M_(M), params_(params), reduce_(reduce), null_space_(null_space),
        monitor_(monitor), w_(work) {}

  BlockSolveResult solve(const_multivector_type B, multivector_type X, InitialGuess guess) {
    const std::size_t k = B.extent(1);
    w_.ensure(B.extent(0), k);
    columns_.assign(k, Column{});
    alpha_ = HostScalars("kelp::Cg::block::alpha", k);
    beta_ = HostScalars("kelp::Cg::block::beta", k);
    ones_ = HostScalars("kelp::Cg::block::ones", k);
    Kokkos::deep_copy(ones_, Scalar(1));
    if (guess == InitialGuess::zero) kernels::fill(X, Scalar(0));

    start(B, X, guess);
    int it = 0;
    while (any_active() && it < params_.max_iterations) {
      ++it;
      step(B, X, it);
    }
    return finish(B, X);
  }

 private:
  struct Column {
    SolveResult result;
    double tolerance = 0;
    bool active = false;
    bool converged = false;
    Scalar rho{};
    StopReason reason = StopReason::max_iterations;
  };

  /// Norms of B, first residuals and the first search directions.
  void start(const_multivector_type B, multivector_type X, InitialGuess guess) {
    const std::size_t k = columns_.size();
    HostNorms b_norms("kelp::Cg::block::b_norms", k), r_norms("kelp::Cg::block::r_norms", k);
    reduce_.column_norms(B, b_norms);
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      c.result.rhs_norm = b_norms(j);
      c.tolerance = std::max(params_.relative_tolerance * c.result.rhs_norm, params_.absolute_tolerance);
      c.active = true;
      if (!std::isfinite(c.result.rhs_norm)) stop(j, StopReason::non_finite);
    }
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      if (c.active && c.result.rhs_norm == 0) {  // A x = 0: x = 0 exactly
        kernels::fill(Kokkos::subview(X, Kokkos::ALL, j), Scalar(0));
        stop(j, StopReason::converged_absolute);
      } else if (c.active && null_space_ &&
                 !null_space_->is_compatible(Kokkos::subview(B, Kokkos::ALL, j), c.result.rhs_norm,
                                             reduce_)) {
        stop(j, StopReason::incompatible_rhs);
      }
    }
    if (guess == InitialGuess::zero) {  // R = B: no operator application
      Kokkos::deep_copy(w_.R, B);
      project_columns(w_.R);
      reduce_.column_norms(w_.R, r_norms);
    } else {
      true_residuals(B, X, w_.R, r_norms);
    }
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      c.result.initial_residual_norm = r_norms(j);
      c.result.residual_history.push_back(r_norms(j));
      if (c.active && r_norms(j) <= c.tolerance) confirm(j, r_norms(j));
    }
    precondition();
    Kokkos::deep_copy(w_.P, w_.Z);
    HostScalars rho("kelp::Cg::block::rho", k);
    reduce_.column_dots(w_.R, w_.Z, rho);
    for (std::size_t j = 0; j < k; ++j) {
      if (columns_[j].active) check_rho(j, rho(j));
    }
  }

  /// One block iteration.
  void step(const_multivector_type B, multivector_type X, int it) {
    const std::size_t k = columns_.size();
    A_.apply(w_.P, w_.Q);  // Q = A P
    HostScalars pq("kelp::Cg::block::pq", k);
    reduce_.column_dots(w_.P, w_.Q, pq);
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      alpha_(j) = Scalar(0);
      if (!c.active) continue;
      c.result.iterations = it;
      const double pq_j = Traits::real(pq(j));
      if (!std::isfinite(pq_j)) {
        stop(j, StopReason::non_finite);
      } else if (pq_j <= 0) {
        stop(j, StopReason::indefinite_matrix);
      } else {
        alpha_(j) = c.rho / Scalar(pq_j);
      }
    }
    kernels::axpby_columns(alpha_, w_.P, ones_, X);  // X += alpha P (stopped columns: alpha 0)
    for (std::size_t j = 0; j < k; ++j) alpha_(j) = -alpha_(j);
    kernels::axpby_columns(alpha_, w_.Q, ones_, w_.R);  // R -= alpha Q
    precondition();                                     // Z = M^{-1} R

    HostScalars rho_new("kelp::Cg::block::rho_new", k), rr("kelp::Cg::block::rr", k);
    reduce_.column_dots(w_.R, w_.Z, w_.R, w_.R, rho_new, rr);
    bool claims = false;
    double worst = 0, worst_relative = 0;
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      beta_(j) = Scalar(0);
      if (!c.active) continue;
      const double r_norm = std::sqrt(Traits::real(rr(j)));
      c.result.residual_history.push_back(r_norm);
      worst = std::max(worst, r_norm);
      worst_relative = std::max(worst_relative, r_norm / c.result.rhs_norm);
      if (!std::isfinite(r_norm)) {
        stop(j, StopReason::non_finite);
      } else if (r_norm <= c.tolerance) {
        claims = true;  // confirmed below on the true residual
      } else {
        const Scalar rho_old = c.rho;
        if (check_rho(j, rho_new(j))) beta_(j) = rho_new(j) / rho_old;  // check_rho keeps rho_new
      }
    }
    if (monitor_) monitor_(it, worst, worst_relative);
    if (claims) confirm_claims(B, X, rr);
    kernels::axpby_columns(ones_, w_.Z, beta_, w_.P);  // P = Z + beta P
  }

  /// Columns whose recurrence residual met the tolerance: converged if the true residual agrees,
  /// else restarted from the true residual (the recurrence drifted).
  void confirm_claims(const_multivector_type B, multivector_type X, const HostScalars& rr) {
    const std::size_t k = columns_.size();
    HostNorms t_norms("kelp::Cg::block::t_norms", k);
    true_residuals(B, X, w_.T, t_norms);
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      if (!c.active || !(std::sqrt(Traits::real(rr(j))) <= c.tolerance)) continue;
      if (confirm(j, t_norms(j))) continue;
      restart(j);
    }
  }

  /// Restarts column j from its true residual (in T): r = t, z = M^{-1} r, p = z (beta 0 below).
  void restart(std::size_t j) {
    const auto r = Kokkos::subview(w_.R, Kokkos::ALL, j);
    const auto z = Kokkos::subview(w_.Z, Kokkos::ALL, j);
    Kokkos::deep_copy(r, Kokkos::subview(w_.T, Kokkos::ALL, j));
    M_.apply(r, z);
    if (null_space_) null_space_->project(z, reduce_);
    check_rho(j, reduce_.dot(r, z));
    beta_(j) = Scalar(0);
  }

  /// True when r_norm meets column j's tolerance (then the column stops as converged).
  bool confirm(std::size_t j, double r_norm) {
    auto& c = columns_[j];
    if (!(r_norm <= c.tolerance)) return false;
    stop(j, r_norm <= params_.relative_tolerance * c.result.rhs_norm ? StopReason::converged_relative
                                                                       : StopReason::converged_absolute);
    return true;
  }

  /// Records rho for column j, or stops it when rho shows breakdown or an indefinite M.
  bool check_rho(std::size_t j, Scalar rho) {
    if (!Traits::is_finite(rho)) {
      stop(j, StopReason::non_finite);
    } else if (Traits::real(rho) < 0) {
      stop(j, StopReason::indefinite_preconditioner);
    } else if (Traits::real(rho) == 0) {
      stop(j, StopReason::breakdown);
    } else {
      columns_[j].rho = rho;
      return true;
    }
    return false;
  }

  void stop(std::size_t j, StopReason reason) {
    columns_[j].active = false;
    columns_[j].reason = reason;
  }

  bool any_active() const {
    return std::any_of(columns_.begin(), columns_.end(), [](const Column& c) { return c.active; });
  }

  /// Z = M^{-1} R, projected off the null space.
  void precondition() {
    M_.apply(w_.R, w_.Z);
    project_columns(w_.Z);
  }

  /// out = B - A X (projected), norms per column.
  void true_residuals(const_multivector_type B, multivector_type X, multivector_type out,
                      const HostNorms& norms) {
    A_.apply(X, out, Scalar(-1), Scalar(0));
    kernels::axpby(Scalar(1), B, Scalar(1), out);
    project_columns(out);
    reduce_.column_norms(out, norms);
  }

  void project_columns(multivector_type V) const {
    if (!null_space_) return;
    for (std::size_t j = 0; j < V.extent(1); ++j) {
      null_space_->project(Kokkos::subview(V, Kokkos::ALL, j), reduce_);
    }
  }

  /// Final true residuals (unprojected for incompatible columns) and the per-column results.
  BlockSolveResult finish(const_multivector_type B, multivector_type X) {
    project_columns(X);
    const std::size_t k = columns_.size();
    HostNorms t_norms("kelp::Cg::block::t_norms", k);
    A_.apply(X, w_.T, Scalar(-1), Scalar(0));
    kernels::axpby(Scalar(1), B, Scalar(1), w_.T);
    HostNorms raw("kelp::Cg::block::raw_norms", k);
    reduce_.column_norms(w_.T, raw);
    project_columns(w_.T);
    reduce_.column_norms(w_.T, t_norms);
    BlockSolveResult out;
    for (std::size_t j = 0; j < k; ++j) {
      auto& c = columns_[j];
      c.result.reason = c.active ? StopReason::max_iterations : c.reason;
      c.result.residual_norm = c.reason == StopReason::incompatible_rhs ? raw(j) : t_norms(j);
      if (c.result.converged() && !(c.result.residual_norm <= c.tolerance)) {
        c.result.reason = StopReason::max_iterations;
      }
      out.columns.push_back(c.result);
    }
    return out;
  }

  const Op& A_;
  const Op& M_;
  const CgParams& params_;
  const Reduction& reduce_;
  const NullSpace<Scalar, Device>* null_space_;
  const IterationMonitor& monitor_;
  BlockCgWorkspace<Scalar, Device>& w_;
  std::vector<Column> columns_;
  HostScalars alpha_, beta_, ones_;
};

}  // namespace impl
}  // namespace kelp::solvers

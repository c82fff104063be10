#pragma once
/// GMRES(m) and flexible GMRES(m), right- or left-preconditioned, for general square A.

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <vector>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/gmres/gmres_params.hpp"
#include "kelp/solvers/gmres/impl/combine_columns.hpp"
#include "kelp/solvers/gmres/impl/givens.hpp"
#include "kelp/solvers/gmres/impl/update_and_dots.hpp"
#include "kelp/solvers/impl/krylov_common.hpp"
#include "kelp/solvers/reduction.hpp"
#include "kelp/solvers/solve_result.hpp"
#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// Restarted GMRES (Saad & Schultz 1986; Saad, "Iterative Methods", Alg. 6.9 and 9.5 for the
/// flexible form), right-preconditioned: solves A M^{-1} u = b, x = M^{-1} u, so the residual it
/// minimises is the true, unpreconditioned b - A x.
///
/// Each cycle builds an orthonormal Krylov basis V (m + 1 vectors) by CGS2 (default: two block
/// reductions per step, the right choice for many ranks and GPUs) or MGS, reduces the Hessenberg
/// matrix with Givens rotations on the host, and updates x once per cycle. Convergence is
/// declared only on the TRUE residual, recomputed at each restart; a recurrence estimate that
/// meets the tolerance ends the cycle early. When the Krylov space closes (h_{j+1,j} = 0 to
/// rounding) the result notes happy_breakdown; with a small true residual it is converged.
/// With flexible = true (FGMRES), M may be variable (an inner solver); plain GMRES refuses such M.
/// With side = left, GMRES solves M^{-1} A x = M^{-1} b and minimises the preconditioned
/// residual: the stopping rules and the residual history then use ||M^{-1} (b - A x)||
/// (SolveResult::stopping_norm = preconditioned), recomputed exactly at each restart; the true
/// residual ||b - A x|| is recomputed at the end and reported as residual_norm.
/// Per step: 1 operator apply, 1 preconditioner apply, CGS2: 3 reductions, 3 sweeps over V
/// (cgs and cgs_refine_if_needed without refinement: 2 and 2; see Orthogonalization).
template <class Scalar, class Device = DefaultDevice, class Reduction = LocalReduction>
class Gmres : public Operator<Scalar, Device> {
 public:
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using Traits = ScalarTraits<Scalar>;
  using Real = typename Traits::magnitude_type;

  /// @param[in] A  the square operator; @param[in] M  the right preconditioner (~ A^{-1})
  Gmres(std::shared_ptr<const Operator<Scalar, Device>> A,
        std::shared_ptr<const Operator<Scalar, Device>> M, GmresParams params, Reduction reduce = {})
      : A_(std::move(A)), M_(std::move(M)), params_(params), reduce_(reduce) {
    impl::check_operator_and_preconditioner(A_.get(), M_.get(), "kelp::solvers::Gmres",
                                            std::string());
    KELP_REQUIRE(params.restart >= 1, InvalidArgument,
                 "kelp::solvers::Gmres: restart = " << params.restart
                                                    << ", expected >= 1 Krylov vectors per cycle");
    KELP_REQUIRE(params.flexible || !M_->is_variable(), InvalidArgument,
                 "kelp::solvers::Gmres: the preconditioner '"
                     << M_->summary()
                     << "' changes from one application to the next; use flexible GMRES "
                        "(GmresParams::flexible = true; in a configuration, solver type fgmres)");
    KELP_REQUIRE(!(params.flexible && params.side == PreconditionerSide::left), InvalidArgument,
                 "kelp::solvers::Gmres: side = left with flexible = true; flexible GMRES is "
                 "right-preconditioned (use side: right, or plain gmres for left)");
    check_stopping_rules(params, "kelp::solvers::Gmres");
  }

  void set_monitor(IterationMonitor monitor) { monitor_ = std::move(monitor); }
  const SolveResult& last_result() const { return last_result_; }
  const GmresParams& params() const { return params_; }
  /// Second Gram-Schmidt passes the last solve made (cgs_refine_if_needed only; 0 otherwise).
  int last_refinements() const { return refinements_; }
  /// GMRES run to a tolerance is not a fixed linear operator.
  bool is_variable() const override { return true; }

  /// Solves A x = b; x is the approximate solution on exit.
  SolveResult solve(const_vector_type b, vector_type x,
                    InitialGuess guess = InitialGuess::provided) const {
    const ProfilingRegion region(params_.flexible ? "kelp::solvers::Fgmres::solve"
                                                  : "kelp::solvers::Gmres::solve");
    last_result_ = solve_impl(b, x, guess);
    return last_result_;
  }

  Ordinal num_rows() const override { return A_->num_rows(); }
  Ordinal num_cols() const override { return A_->num_cols(); }
  std::string summary() const override {
    std::ostringstream out;
    out << (params_.flexible ? "fgmres(" : "gmres(") << params_.restart << ", "
        << to_string(params_.orthogonalization)
        << (params_.side == PreconditionerSide::left ? ", left" : "") << ", max_iterations " << params_.max_iterations
        << ", relative_tolerance " << params_.relative_tolerance << ") preconditioned by "
        << M_->summary();
    return out.str();
  }

 protected:
  /// As an operator: y = alpha * x_gmres + beta * y, x_gmres solving A x_gmres = x from 0.
  void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode) const override {
    ensure_workspace(x.extent(0));
    impl::apply_inverse(*this, x, work_.solution, alpha, beta, y);
  }

 private:
  using HostMatrix = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  /// Host state of one cycle: Hessenberg H ((m + 1) x m, column-major), rotations, g = beta e_1
  /// rotated.
  struct Cycle {
    std::vector<Scalar> h, g, y;
    std::vector<impl::Givens<Scalar>> rotations;
    Scalar& H(int i, int j) { return h[static_cast<std::size_t>(j) * (m + 1) + i]; }
    int m = 0;
  };

  SolveResult solve_impl(const_vector_type b, vector_type x, InitialGuess guess) const {
    const Ordinal n = A_->num_rows();
    impl::check_solve_dimensions("kelp::solvers::Gmres::solve", n, b, x);
    ensure_workspace(n);

    SolveResult result;
    refinements_ = 0;
    if (impl::begin_solve(reduce_, b, x, guess, result)) return result;
    const bool left = params_.side == PreconditionerSide::left;
    result.stopping_norm = left ? ResidualNorm::preconditioned : ResidualNorm::unpreconditioned;
    // The reference of relative_to = rhs in the stopping norm: ||b|| or ||M^{-1} b||.
    double reference_norm = result.rhs_norm;
    if (left) {
      M_->apply(b, work_.z);
      reference_norm = reduce_.norm2(work_.z);
    }
    StoppingState stopping(params_, reference_norm);
    double true_norm = 0;
    double r_norm = cycle_residual(b, x, true_norm);
    stopping.set_initial_residual(r_norm);
    result.initial_residual_norm = true_norm;
    result.residual_history.push_back(r_norm);

    const int m = params_.restart;
    Cycle cycle;
    cycle.m = m;
    cycle.h.assign(static_cast<std::size_t>(m + 1) * m, Scalar(0));
    cycle.g.assign(m + 1, Scalar(0));
    cycle.y.assign(m + 1, Scalar(0));
    cycle.rotations.assign(m, impl::Givens<Scalar>());

    StopReason reason = StopReason::max_iterations;
    int it = 0;
    bool previous_cycle_closed = false;
    for (;;) {
      if (!std::isfinite(r_norm)) {
        reason = StopReason::non_finite;
        break;
      }
      if (stopping.converged(r_norm, reason)) break;
      if (previous_cycle_closed) {
        // The Krylov space closed, yet the true residual misses the tolerance: A (or M) is
        // singular on it, or rounding dominates. Another cycle would repeat the same space.
        reason = StopReason::breakdown;
        result.detail = "Krylov space closed (h_{j+1,j} = 0) with the true residual above tolerance";
        break;
      }
      if (it >= params_.max_iterations) {
        reason = StopReason::max_iterations;
        break;
      }
      bool closed = false;
      bool stop = false;
      const int k = arnoldi_cycle(start_vector(), r_norm, reference_norm, cycle, it, stopping,
                                  result, closed, stop, reason);
      if (k > 0 && !update_solution(cycle, k, x)) {
        reason = StopReason::breakdown;
        result.detail = "singular Hessenberg matrix (A M^{-1} singular on the Krylov space)";
        break;
      }
      if (closed) result.happy_breakdown = true;
      previous_cycle_closed = closed;
      r_norm = cycle_residual(b, x, true_norm);  // restart from, and judge by, the exact residual
      if (stop) {
        stopping.converged(r_norm, reason);  // a stop on the last step may still have converged
        break;
      }
    }
    result.iterations = it;
    result.reason = reason;
    result.stopping_residual_norm = cycle_residual(b, x, result.residual_norm);
    impl::confirm_convergence(result, result.stopping_residual_norm, stopping.tolerance());
    // The true residual is checked whatever the stopping norm was.
    if (!std::isfinite(result.residual_norm)) result.reason = StopReason::non_finite;
    if (left && result.converged()) {
      std::ostringstream note;
      note << "left-preconditioned: converged in ||M^{-1} r|| = " << result.stopping_residual_norm
           << "; true ||b - A x|| / ||b|| = " << result.relative_residual();
      result.detail += (result.detail.empty() ? "" : "; ") + note.str();
    }
    return result;
  }

  /// One Arnoldi cycle from residual r (norm beta): at most m steps; returns the number k of
  /// basis vectors whose combination updates x. Sets `closed` on a happy breakdown and `stop`
  /// (with reason) when a stopping rule other than the tolerance ends the solve.
  int arnoldi_cycle(const_vector_type r, double beta, double reference_norm, Cycle& cycle,
                    int& it, StoppingState& stopping, SolveResult& result, bool& closed,
                    bool& stop, StopReason& reason) const {
    const int m = cycle.m;
    const auto V = work_.V;
    std::fill(cycle.h.begin(), cycle.h.end(), Scalar(0));
    std::fill(cycle.g.begin(), cycle.g.end(), Scalar(0));
    cycle.g[0] = Scalar(beta);
    kernels::axpby(Scalar(1.0 / beta), r, Scalar(0), column(V, 0));  // v_0 = r / beta
    const double tolerance = stopping.tolerance();
    int j = 0;
    for (; j < m && it < params_.max_iterations; ++j) {
      const vector_type w = column(V, j + 1);
      if (params_.side == PreconditionerSide::left) {
        A_->apply(column(V, j), work_.t);  // w = M^{-1} A v_j into v_{j+1}
        M_->apply(work_.t, w);
      } else {
        // z = M^{-1} v_j (kept per column when flexible), w = A z into v_{j+1}
        const vector_type z = params_.flexible ? column(work_.Z, j) : work_.z;
        M_->apply(column(V, j), z);
        A_->apply(z, w);
      }
      const double w_norm = orthogonalize(j, cycle);
      ++it;
      cycle.H(j + 1, j) = Scalar(w_norm);
      // The Krylov space closed when w vanished against its projection (rounding level).
      Real column_norm = 0;
      for (int i = 0; i <= j + 1; ++i) column_norm += Traits::abs2(cycle.H(i, j));
      column_norm = std::sqrt(column_norm);
      const bool happy = !(w_norm > 100 * std::numeric_limits<Real>::epsilon() * column_norm);
      if (!happy) kernels::scal(Scalar(1.0 / w_norm), w);
      if (happy) cycle.H(j + 1, j) = Scalar(0);
      for (int i = 0; i < j; ++i) cycle.rotations[i].apply(cycle.H(i, j), cycle.H(i + 1, j));
      cycle.rotations[j] = impl::Givens<Scalar>::make(cycle.H(j, j), cycle.H(j + 1, j));
      cycle.rotations[j].apply(cycle.H(j, j), cycle.H(j + 1, j));
      cycle.rotations[j].apply(cycle.g[j], cycle.g[j + 1]);
      const double estimate = Traits::abs(cycle.g[j + 1]);
      impl::record_iteration(result, monitor_, it, estimate, reference_norm);
      if (!std::isfinite(w_norm) || !std::isfinite(estimate)) {
        reason = StopReason::non_finite;
        stop = true;
        return 0;  // do not add NaN to x
      }
      if (happy) {
        closed = true;
        return j + 1;
      }
      if (estimate <= tolerance) return j + 1;  // confirmed on the true residual by the caller
      if (stopping.must_stop(it, estimate, reason)) {
        stop = true;
        return j + 1;
      }
    }
    return j;
  }

  /// Orthogonalises w = v_{j+1} against v_0..v_j, writes H(0..j, j); returns ||w||.
  double orthogonalize(int j, Cycle& cycle) const {
    const auto V = work_.V;
    const vector_type w = column(V, j + 1);
    const auto basis = Kokkos::subview(V, Kokkos::ALL, std::make_pair(0, j + 1));
    if (params_.orthogonalization == Orthogonalization::mgs) {
      for (int i = 0; i <= j; ++i) {
        const Scalar hij = reduce_.dot(column(V, i), w);
        cycle.H(i, j) = hij;
        kernels::axpby(-hij, column(V, i), Scalar(1), w);
      }
      return reduce_.norm2(w);
    }
    // Classical Gram-Schmidt: pass 1 is h = V^H w (one reduction) and w -= V h. CGS2 (Giraud
    // et al. 2005: twice is enough) fuses that update with the second pass's h2 = V^H w (one
    // sweep over V instead of two) and its update with ||w||: 3 sweeps, 3 reductions per step.
    const auto w_block = Kokkos::subview(V, Kokkos::ALL, std::make_pair(j + 1, j + 2));
    const std::size_t k = static_cast<std::size_t>(j + 1);
    HostMatrix coefficients(cycle.y.data(), j + 1, 1);
    reduce_.gram(basis, w_block, coefficients);
    switch (params_.orthogonalization) {
      case Orthogonalization::cgs2:
        subtract_projection(j, cycle, k);  // cycle.y = h2 = V^H w of the updated w
        return subtract_projection(j, cycle, 0);
      case Orthogonalization::cgs_refine_if_needed: {
        Real h_norm2 = 0;
        for (int i = 0; i <= j; ++i) h_norm2 += Traits::abs2(cycle.y[i]);
        const double after = subtract_projection(j, cycle, 0);
        // ||w_before||^2 = ||h||^2 + ||w_after||^2 in exact arithmetic (PETSc's test uses the
        // same identity): no extra reduction for the norm before.
        const double before = std::sqrt(static_cast<double>(h_norm2) + after * after);
        if (!(after < refine_threshold * before)) return after;
        ++refinements_;
        reduce_.gram(basis, w_block, coefficients);
        return subtract_projection(j, cycle, 0);
      }
      default:  // cgs
        return subtract_projection(j, cycle, 0);
    }
  }

  /// DGKS's eta: refine when the first pass removed more than 1 - 1/sqrt(2) of w's norm, i.e.
  /// when w was closer to span(V) than 45 degrees.
  static constexpr double refine_threshold = 0.70710678118654752;

  /// One classical Gram-Schmidt update of w = v_{j+1} with h = cycle.y[0..j]: H(0..j, j) += h,
  /// w -= V(:, 0:j+1) h, then, in the same sweep over V, cycle.y[0..d) = V(:, 0:d)^H w of the
  /// updated w (d <= j + 1; columns beyond one sweep's width by gram). Returns ||w|| after.
  double subtract_projection(int j, Cycle& cycle, std::size_t d) const {
    const auto V = work_.V;
    const vector_type w = column(V, j + 1);
    const std::size_t k = static_cast<std::size_t>(j + 1);
    for (int i = 0; i <= j; ++i) {
      cycle.H(i, j) += cycle.y[i];
      work_.coefficients_host(i) = -cycle.y[i];
    }
    Kokkos::deep_copy(work_.coefficients, work_.coefficients_host);
    using Exec = typename Device::execution_space;
    const std::size_t fused = std::min(d, impl::update_and_dots_width<Exec>());
    Scalar* sums = work_.sums.data();
    impl::update_and_dots(V, work_.coefficients, k, w, fused, sums);
    reduce_.sum(sums, fused + 1);
    const double norm = std::sqrt(std::max(0.0, static_cast<double>(Traits::real(sums[fused]))));
    for (std::size_t t = 0; t < fused; ++t) cycle.y[t] = sums[t];
    if (d > fused) {  // the rest of the dots (GPUs with long restarts): one more reduction
      const auto rest = Kokkos::subview(V, Kokkos::ALL, std::make_pair(static_cast<int>(fused), j + 1));
      const auto w_block = Kokkos::subview(V, Kokkos::ALL, std::make_pair(j + 1, j + 2));
      HostMatrix tail(cycle.y.data() + fused, d - fused, 1);
      reduce_.gram(rest, w_block, tail);
    }
    return norm;
  }

  /// Solves the triangular system R y = g and updates x += M^{-1} V y (Z y when flexible, V y
  /// when left-preconditioned).
  /// When R is singular (A M^{-1} singular on the Krylov space), only its leading nonsingular
  /// block is used: the least-squares solution on the first basis vectors; returns false then.
  bool update_solution(Cycle& cycle, int k, vector_type x) const {
    Real largest = 0;
    for (int i = 0; i < k; ++i) largest = std::max(largest, Traits::abs(cycle.H(i, i)));
    int used = 0;
    while (used < k && Traits::abs(cycle.H(used, used)) >
                           100 * std::numeric_limits<Real>::epsilon() * largest) {
      ++used;
    }
    for (int i = used - 1; i >= 0; --i) {
      Scalar sum = cycle.g[i];
      for (int l = i + 1; l < used; ++l) sum -= cycle.H(i, l) * cycle.y[l];
      cycle.y[i] = sum / cycle.H(i, i);
    }
    if (used == 0) return false;
    for (int i = 0; i < used; ++i) work_.coefficients_host(i) = cycle.y[i];
    Kokkos::deep_copy(work_.coefficients, work_.coefficients_host);
    if (params_.side == PreconditionerSide::left) {
      impl::combine_columns(work_.V, work_.coefficients, static_cast<std::size_t>(used), x, false);
    } else if (params_.flexible) {
      impl::combine_columns(work_.Z, work_.coefficients, static_cast<std::size_t>(used), x, false);
    } else {
      impl::combine_columns(work_.V, work_.coefficients, static_cast<std::size_t>(used), work_.t,
                            true);
      M_->apply(work_.t, work_.z);
      kernels::axpby(Scalar(1), work_.z, Scalar(1), x);
    }
    return used == k;
  }

  /// The residual a cycle starts from, in the stopping norm: r = b - A x (right), then
  /// z = M^{-1} r (left); returns its norm and sets true_norm = ||r||. start_vector() holds it.
  double cycle_residual(const_vector_type b, const_vector_type x, double& true_norm) const {
    true_norm = true_residual(b, x, work_.r);
    if (params_.side == PreconditionerSide::right) return true_norm;
    M_->apply(work_.r, work_.z);
    return reduce_.norm2(work_.z);
  }
  vector_type start_vector() const {
    return params_.side == PreconditionerSide::left ? work_.z : work_.r;
  }

  /// r = b - A x; returns ||r||.
  double true_residual(const_vector_type b, const_vector_type x, vector_type r) const {
    return impl::true_residual(*A_, reduce_, b, x, r);
  }

  static vector_type column(const multivector_type& V, int j) {
    return Kokkos::subview(V, Kokkos::ALL, j);
  }

  struct Workspace {
    multivector_type V, Z;
    vector_type r, z, t, solution, coefficients;
    typename vector_type::HostMirror coefficients_host;
    std::vector<Scalar> sums;  // the local sums of one update_and_dots sweep
  };
  /// Allocated on the first solve, reused while the size stays the same.
  void ensure_workspace(std::size_t n) const {
    if (work_.r.extent(0) == n && work_.r.data() != nullptr) return;
    const auto make = [n](const char* label) {
      return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    const std::size_t m = static_cast<std::size_t>(params_.restart);
    work_.V = multivector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::Gmres::V"), n,
                               m + 1);
    if (params_.flexible) {
      work_.Z = multivector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::Gmres::Z"),
                                 n, m);
    }
    work_.r = make("kelp::Gmres::r");
    work_.z = make("kelp::Gmres::z");
    work_.t = make("kelp::Gmres::t");
    work_.solution = make("kelp::Gmres::solution");
    work_.coefficients = vector_type("kelp::Gmres::coefficients", m + 1);
    work_.coefficients_host = Kokkos::create_mirror_view(work_.coefficients);
    work_.sums.assign(m + 2, Scalar(0));
  }

  std::shared_ptr<const Operator<Scalar, Device>> A_;
  std::shared_ptr<const Operator<Scalar, Device>> M_;
  GmresParams params_;
  Reduction reduce_;
  IterationMonitor monitor_;
  // Mutable: solve() and apply() are const; one Gmres object is not for concurrent use.
  mutable Workspace work_;
  mutable SolveResult last_result_;
  mutable int refinements_ = 0;
};

// Compiled once for the standard scalars, in solvers/eti/ (see kernels/core/eti.hpp).
#define KELP_GMRES_ETI(PREFIX, S) PREFIX template class Gmres<S, DefaultDevice, LocalReduction>;
KELP_ETI_FOR_EACH_SCALAR(KELP_GMRES_ETI, extern)

}  // namespace kelp::solvers

#pragma once
/// EisenstatCg's member functions (solvers/cg/eisenstat_cg.hpp): the split of A in sweep order
/// (setup, on the host, O(nnz)) and the iteration.

#include "kelp/solvers/cg/eisenstat_cg.hpp"

namespace kelp::solvers {

namespace impl {

/// Copies a host vector into a new device view.
template <class T, class Device>
Kokkos::View<T*, Device> eisenstat_to_device(const std::vector<T>& host, const char* label) {
  Kokkos::View<T*, Device> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                               host.size());
  Kokkos::deep_copy(out, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                             host.data(), host.size()));
  return out;
}

}  // namespace impl

template <class Scalar, class Device>
void EisenstatCg<Scalar, Device>::setup(const Matrix& A) {
  constexpr const char* where = "kelp::solvers::EisenstatCg";
  KELP_REQUIRE(M_ != nullptr, InvalidArgument, where << ": the Gauss-Seidel preconditioner is null");
  KELP_REQUIRE(M_->is_set_up(), InvalidArgument,
               where << ": the Gauss-Seidel preconditioner is not set up (call its setup(A) first)");
  const auto& gs = M_->params();
  KELP_REQUIRE(gs.variant == precond::GaussSeidelVariant::multicolor &&
                   gs.direction == precond::GaussSeidelDirection::symmetric && gs.sweeps == 1,
               InvalidArgument,
               where << ": needs a multicolor, symmetric, 1-sweep Gauss-Seidel; got "
                     << M_->summary());
  KELP_REQUIRE(A.num_rows() == A.num_cols() && A.num_rows() == M_->num_rows(), DimensionMismatch,
               where << ": matrix is " << A.num_rows() << " x " << A.num_cols()
                     << ", the preconditioner " << M_->num_rows() << " x " << M_->num_rows());
  A_ = A;
  A_op_ = std::make_shared<MatrixOperator<Matrix>>(A);
  const Ordinal n = A.num_rows();
  const std::vector<Ordinal> order = M_->forward_order();
  const auto colors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), M_->row_colors());
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries());
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values());

  std::vector<Ordinal> position(n);
  for (Ordinal k = 0; k < n; ++k) position[order[k]] = k;
  const Ordinal num_colors = M_->num_colors();
  color_ptr_.assign(num_colors + 1, 0);
  for (Ordinal k = 0; k < n; ++k) {
    KELP_REQUIRE(k == 0 || colors(order[k - 1]) <= colors(order[k]), InvalidArgument,
                 where << ": the preconditioner's forward order is not grouped by color");
    ++color_ptr_[colors(order[k]) + 1];
  }
  for (Ordinal c = 0; c < num_colors; ++c) color_ptr_[c + 1] += color_ptr_[c];

  // The strict triangles in positions; the diagonal summed (duplicates add, as in the sweeps).
  std::vector<Offset> lower_ptr(n + 1, 0), upper_ptr(n + 1, 0);
  std::vector<Ordinal> lower_cols, upper_cols;
  std::vector<Scalar> lower_vals, upper_vals, diagonal(n, Scalar(0));
  lower_cols.reserve(A.nnz() / 2);
  upper_cols.reserve(A.nnz() / 2);
  lower_vals.reserve(A.nnz() / 2);
  upper_vals.reserve(A.nnz() / 2);
  for (Ordinal k = 0; k < n; ++k) {
    const Ordinal i = order[k];
    for (Offset p = row_map(i); p < row_map(i + 1); ++p) {
      const Ordinal j = entries(p);
      if (j == i) {
        diagonal[k] += values(p);
        continue;
      }
      KELP_REQUIRE(colors(j) != colors(i), InvalidArgument,
                   where << ": rows " << i + 1 << " and " << j + 1
                         << " (1-based) have one color and are coupled: not a distance-1 coloring");
      if (position[j] < k) {
        lower_cols.push_back(position[j]);
        lower_vals.push_back(values(p));
      } else {
        upper_cols.push_back(position[j]);
        upper_vals.push_back(values(p));
      }
    }
    lower_ptr[k + 1] = static_cast<Offset>(lower_cols.size());
    upper_ptr[k + 1] = static_cast<Offset>(upper_cols.size());
  }
  const double omega = gs.omega;
  std::vector<Scalar> inv(n), e(n), dq(n), zs(n);
  for (Ordinal k = 0; k < n; ++k) {
    const Scalar a = diagonal[k];
    KELP_REQUIRE(a != Scalar(0) && Traits::is_finite(a), NumericalError,
                 where << ": " << (a == Scalar(0) ? "zero" : "non-finite") << " diagonal entry at row "
                       << order[k] + 1 << " (1-based)");
    inv[k] = Scalar(omega) / a;
    e[k] = a * Scalar(1 - 2 / omega);
    dq[k] = a * Scalar(1 - 1 / omega);
    zs[k] = Scalar((2 - omega) / omega) * a;
  }
  order_ = impl::eisenstat_to_device<Ordinal, Device>(order, "kelp::EisenstatCg::order");
  lower_ = {impl::eisenstat_to_device<Offset, Device>(lower_ptr, "kelp::EisenstatCg::lower_ptr"),
            impl::eisenstat_to_device<Ordinal, Device>(lower_cols, "kelp::EisenstatCg::lower_cols"),
            impl::eisenstat_to_device<Scalar, Device>(lower_vals, "kelp::EisenstatCg::lower_vals")};
  upper_ = {impl::eisenstat_to_device<Offset, Device>(upper_ptr, "kelp::EisenstatCg::upper_ptr"),
            impl::eisenstat_to_device<Ordinal, Device>(upper_cols, "kelp::EisenstatCg::upper_cols"),
            impl::eisenstat_to_device<Scalar, Device>(upper_vals, "kelp::EisenstatCg::upper_vals")};
  inv_ = impl::eisenstat_to_device<Scalar, Device>(inv, "kelp::EisenstatCg::inv");
  e_ = impl::eisenstat_to_device<Scalar, Device>(e, "kelp::EisenstatCg::e");
  dq_ = impl::eisenstat_to_device<Scalar, Device>(dq, "kelp::EisenstatCg::dq");
  zs_ = impl::eisenstat_to_device<Scalar, Device>(zs, "kelp::EisenstatCg::zs");
}

template <class Scalar, class Device>
void EisenstatCg<Scalar, Device>::ensure_workspace() const {
  const std::size_t n = A_.num_rows();
  if (work_.x.extent(0) == n && work_.x.data() != nullptr) return;
  const auto make = [n](const char* label) {
    return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
  };
  work_ = {make("kelp::EisenstatCg::x"), make("kelp::EisenstatCg::r"), make("kelp::EisenstatCg::rh"),
           make("kelp::EisenstatCg::z"), make("kelp::EisenstatCg::p"), make("kelp::EisenstatCg::t"),
           make("kelp::EisenstatCg::w"), make("kelp::EisenstatCg::q"),
           make("kelp::EisenstatCg::residual")};
}

template <class Scalar, class Device>
bool EisenstatCg<Scalar, Device>::restart(Scalar& rho, StopReason& reason) const {
  for (std::size_t c = 0; c + 1 < color_ptr_.size(); ++c) {
    impl::eisenstat_forward_plain(lower_, color_ptr_[c], color_ptr_[c + 1], inv_, work_.r, work_.rh);
  }
  rho = impl::eisenstat_scale(zs_, work_.rh, work_.z);
  return impl::rho_fails(rho, reason);
}

template <class Scalar, class Device>
double EisenstatCg<Scalar, Device>::true_residual(const_vector_type b, vector_type x) const {
  impl::eisenstat_permute(order_, work_.x, x, true);
  return impl::true_residual(*A_op_, reduce_, b, const_vector_type(x), work_.residual);
}

template <class Scalar, class Device>
SolveResult EisenstatCg<Scalar, Device>::solve_impl(const_vector_type b, vector_type x,
                                                    InitialGuess guess) const {
  impl::check_solve_dimensions("kelp::solvers::EisenstatCg::solve", A_.num_rows(), b, x);
  ensure_workspace();
  const Workspace& w = work_;
  SolveResult result;
  if (impl::begin_solve(reduce_, b, x, guess, result)) return result;
  StoppingState stopping(params_, result.rhs_norm);

  // The residual of the start, in sweep order (a zero guess costs no product).
  double r_norm = 0;
  if (guess == InitialGuess::zero) {
    kernels::fill(w.x, Scalar(0));
    impl::eisenstat_permute(order_, b, w.r, false);
    r_norm = reduce_.norm2(w.r);
  } else {
    impl::eisenstat_permute(order_, x, w.x, false);
    r_norm = impl::true_residual(*A_op_, reduce_, b, const_vector_type(x), w.residual);
    impl::eisenstat_permute(order_, w.residual, w.r, false);
  }
  impl::record_initial_residual(r_norm, stopping, result);
  const double tolerance = stopping.tolerance();
  Scalar rho{}, beta{};
  StopReason reason = StopReason::max_iterations;
  bool stop = stopping.converged(r_norm, reason) || restart(rho, reason);
  bool fresh = true;  // p^ = z (after a (re)start), else p^ = z + beta p^
  const Ordinal colors = num_colors();
  int it = 0;
  while (!stop && it < params_.max_iterations) {
    ++it;
    for (Ordinal c = colors - 1; c >= 0; --c) {  // t = K~^{-1} p^, p^ updated on the way
      impl::eisenstat_backward(upper_, color_ptr_[c], color_ptr_[c + 1], inv_, w.z, beta, fresh, w.p, w.t);
    }
    fresh = false;
    Scalar tq(0);  // w = K^{-1} (p^ + E t), q = A t, t^H q (= p^H A p in the original space)
    for (Ordinal c = 0; c < colors; ++c) {
      tq += impl::eisenstat_forward(lower_, color_ptr_[c], color_ptr_[c + 1], inv_, e_, dq_, w.p, w.t, w.w, w.q);
    }
    const double pq = Traits::real(tq);
    if (impl::curvature_fails(pq, reason)) break;
    const Scalar alpha = rho / Scalar(pq);
    const auto [rho_new, rr] = impl::eisenstat_update(alpha, w.t, w.w, w.q, zs_, w.x, w.r, w.rh, w.z);
    r_norm = std::sqrt(Traits::real(rr));
    impl::record_iteration(result, monitor_, it, r_norm, result.rhs_norm);
    if (impl::non_finite(r_norm, reason)) break;
    if (r_norm <= tolerance) {
      // The recurrence claims convergence: trust only the true residual (original system).
      r_norm = true_residual(b, x);
      if (stopping.converged(r_norm, reason)) break;
      impl::eisenstat_permute(order_, w.residual, w.r, false);
      if (restart(rho, reason)) break;
      fresh = true;
      continue;
    }
    if (stopping.must_stop(it, r_norm, reason)) break;
    if (impl::rho_fails(rho_new, reason)) break;
    beta = rho_new / rho;
    rho = rho_new;
  }
  // The iterate back in the original order, and the true residual of the returned x.
  impl::finish_result(result, it, reason, true_residual(b, x), tolerance);
  return result;
}

}  // namespace kelp::solvers

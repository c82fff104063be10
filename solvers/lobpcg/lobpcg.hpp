#pragma once
/// LOBPCG: a few extreme eigenpairs of a Hermitian A, or of the pencil (A, B) with B Hermitian
/// positive definite, preconditioned.

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <random>
#include <vector>

#include "kelp/kernels/blas1/gram.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/lobpcg/impl/lobpcg_kernels.hpp"
#include "kelp/solvers/lobpcg/impl/rayleigh_ritz.hpp"
#include "kelp/solvers/lobpcg/lobpcg_params.hpp"
#include "kelp/solvers/reduction.hpp"

namespace kelp::solvers {

/// How LOBPCG starts: from random vectors (seeded by LobpcgParams::seed) or from the columns
/// of X given to solve() (guard vectors random).
enum class LobpcgStart { random, provided };

/// Locally optimal block preconditioned conjugate gradients (Knyazev 2001, "Toward the optimal
/// preconditioned eigensolver", SIAM J. Sci. Comput. 23(2); the robust form of Duersch, Shao,
/// Yang & Gu 2018, SIAM J. Sci. Comput. 40(5)).
///
/// Each iteration solves the Rayleigh-Ritz problem on the basis V = [X P W] (block size b,
/// active columns a):
///
///   W  = M^{-1} (A X_a - B X_a Lambda_a)       preconditioned residuals of the active pairs
///   W -= X (BX)^H W                            B-orthogonal to X (one block reduction)
///   GA = V^H [AX AP AW],  GB = V^H [BX BP BW]  (upper triangles, one fused block reduction)
///   GA c = theta GB c                          dense, on the host (Eigen, SVQB; rayleigh_ritz.hpp)
///   X  = V C,    P = [P W] C_[P W], active columns
///
/// A and B are applied to W only: AX, AP (and BX, BP) are updated with the same coefficients as
/// X and P, so each iteration costs one block application of A (and B, M) to a columns, two
/// block reductions, one fused residual/norm pass and the combinations V C.
///
/// Soft locking: a pair that has converged keeps its Ritz vector in the basis (so the others stay
/// B-orthogonal to it and it keeps improving) but gets no W or P columns any more.
/// When the scaled GB is worse conditioned than restart_condition, the step is redone without P
/// (a restart); directions that stay numerically dependent are dropped (SVQB). If fewer than b
/// directions remain, or GB's diagonal is not positive (B indefinite on the basis), the solve
/// stops with breakdown; NaN/Inf stops it with non_finite. Every reduction goes through Reduction.
///
/// Requirements: A (and B) Hermitian, B positive definite, 3 * block size <= n. M approximates
/// A^{-1} (or (A - sigma B)^{-1}) and must be Hermitian positive definite.
/// Memory: 2 x 3 x 3 b vectors of n (X, P, W and their A and B images, double-buffered; 2/3 of
/// that for B = I) plus 2 b for residuals.
template <class Scalar, class Device = DefaultDevice, class Reduction = LocalReduction>
class Lobpcg {
 public:
  using Op = Operator<Scalar, Device>;
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using const_multivector_type = ConstMultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using Traits = ScalarTraits<Scalar>;
  using ExecSpace = typename Device::execution_space;

  /// @param[in] A  Hermitian operator
  /// @param[in] M  preconditioner, or nullptr for none
  /// @param[in] B  Hermitian positive definite operator of the generalised problem, or nullptr
  ///               for the standard problem (B = I)
  /// @throws InvalidArgument for a null A or bad parameters, DimensionMismatch for operators of
  ///         different sizes or a block too large for the problem (3 * block size > n)
  Lobpcg(std::shared_ptr<const Op> A, std::shared_ptr<const Op> M, std::shared_ptr<const Op> B,
         LobpcgParams params, Reduction reduce = {});

  /// Computes the wanted eigenpairs: X (n x num_eigenpairs) holds the eigenvectors on exit,
  /// B-orthonormal, in the order of the returned eigenvalues.
  /// @param[in] start  random (default; X is not read) or provided (X holds the start)
  LobpcgResult solve(multivector_type X, LobpcgStart start = LobpcgStart::random) const;

  const LobpcgParams& params() const { return params_; }
  std::string summary() const;

 private:
  struct Buffers {
    multivector_type V, AV, BV;  // [X P W] and its images; BV empty when B = I
  };
  using HostMatrix = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using DeviceMatrix = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Device>;

  void allocate(std::size_t n, std::size_t b) const;
  multivector_type cols(const multivector_type& v, std::size_t first, std::size_t count) const {
    return Kokkos::subview(v, Kokkos::ALL, std::make_pair(first, first + count));
  }
  multivector_type bcols(const Buffers& s, std::size_t first, std::size_t count) const {
    return cols(B_ ? s.BV : s.V, first, count);
  }
  /// Y = beta Y + V C for a host coefficient matrix C (m x q, column-major, leading dim m).
  void combine(const_multivector_type V, const Scalar* c, multivector_type Y, Scalar beta) const;
  /// GA, GB (m x m, column-major, upper triangles) of the first m columns of s.
  void gram_pair(const Buffers& s, std::size_t m, std::vector<Scalar>& GA,
                 std::vector<Scalar>& GB) const;
  /// The same through kernels::gram (GPUs: see the definition).
  void gram_pair_tiled(const const_multivector_type& v, const const_multivector_type& av,
                       const const_multivector_type& bv, std::size_t m, std::vector<Scalar>& GA,
                       std::vector<Scalar>& GB) const;
  /// Residuals R = AX - BX Lambda of the b columns of X in s and their norms.
  void residuals(const Buffers& s, std::size_t b, const std::vector<double>& lambda,
                 std::vector<double>& norms) const;
  impl::RayleighRitzInfo rayleigh_ritz(std::size_t m, std::size_t b, const std::vector<Scalar>& GA,
                                       const std::vector<Scalar>& GB, std::vector<double>& theta,
                                       std::vector<Scalar>& C) const;
  void fence() const { ExecSpace().fence(); }

  std::shared_ptr<const Op> A_, M_, B_;
  LobpcgParams params_;
  Reduction reduce_;
  mutable Buffers cur_, next_;
  mutable multivector_type R_, RA_;   // residuals of all b columns, active ones gathered
  mutable DeviceMatrix coeff_;        // device copy of a coefficient block
  mutable Kokkos::View<double*, Device> lambda_;
  mutable LobpcgTimings* timings_ = nullptr;
};

// ---------------------------------------------------------------------------------------------

template <class Scalar, class Device, class Reduction>
Lobpcg<Scalar, Device, Reduction>::Lobpcg(std::shared_ptr<const Op> A, std::shared_ptr<const Op> M,
                                          std::shared_ptr<const Op> B, LobpcgParams params,
                                          Reduction reduce)
    : A_(std::move(A)), M_(std::move(M)), B_(std::move(B)), params_(params), reduce_(reduce) {
  constexpr const char* where = "kelp::solvers::Lobpcg";
  KELP_REQUIRE(A_ != nullptr, InvalidArgument, where << ": the operator A must not be null");
  const Ordinal n = A_->num_rows();
  KELP_REQUIRE(A_->num_cols() == n, DimensionMismatch,
               where << ": A is " << n << " x " << A_->num_cols() << ", expected square");
  for (const auto* op : {M_.get(), B_.get()}) {
    KELP_REQUIRE(op == nullptr || (op->num_rows() == n && op->num_cols() == n), DimensionMismatch,
                 where << ": " << (op == M_.get() ? "preconditioner M" : "B") << " is "
                       << op->num_rows() << " x " << op->num_cols() << ", A is " << n << " x " << n);
  }
  KELP_REQUIRE(M_ == nullptr || !M_->is_variable(), InvalidArgument,
               where << ": the preconditioner '" << M_->summary()
                     << "' changes between applications; LOBPCG needs a fixed linear one");
  KELP_REQUIRE(params_.num_eigenpairs >= 1 && params_.guard_vectors >= 0, InvalidArgument,
               where << ": num_eigenpairs = " << params_.num_eigenpairs << ", guard_vectors = "
                     << params_.guard_vectors << "; expected num_eigenpairs >= 1, guard_vectors >= 0");
  const long long b = static_cast<long long>(params_.num_eigenpairs) + params_.guard_vectors;
  // The global size: on many ranks (dist::MpiReduction) n is this rank's rows, maybe none.
  double global_n = static_cast<double>(n);
  reduce_.sum(&global_n, 1);
  KELP_REQUIRE(3 * b <= static_cast<long long>(global_n), InvalidArgument,
               where << ": block size " << b << " (num_eigenpairs " << params_.num_eigenpairs
                     << " + guard_vectors " << params_.guard_vectors << ") is too large for "
                     << static_cast<long long>(global_n)
                     << " rows; LOBPCG needs 3 * block size <= n (use a dense solver)");
  KELP_REQUIRE(params_.max_iterations >= 0, InvalidArgument,
               where << ": max_iterations = " << params_.max_iterations << " < 0");
  KELP_REQUIRE(params_.relative_tolerance >= 0 && params_.absolute_tolerance >= 0 &&
                   (params_.relative_tolerance > 0 || params_.absolute_tolerance > 0),
               InvalidArgument,
               where << ": tolerances must be >= 0 and one of them > 0 (relative_tolerance = "
                     << params_.relative_tolerance << ", absolute_tolerance = "
                     << params_.absolute_tolerance << ")");
  KELP_REQUIRE(params_.restart_condition > 1, InvalidArgument,
               where << ": restart_condition = " << params_.restart_condition << ", expected > 1");
}

template <class Scalar, class Device, class Reduction>
std::string Lobpcg<Scalar, Device, Reduction>::summary() const {
  std::string s = "LOBPCG(" + std::to_string(params_.num_eigenpairs) + " " +
                  to_string(params_.which) + ", block " +
                  std::to_string(params_.num_eigenpairs + params_.guard_vectors);
  s += M_ ? ", M = " + M_->summary() : std::string(", no preconditioner");
  s += B_ ? ", B = " + B_->summary() : std::string("");
  return s + ")";
}

template <class Scalar, class Device, class Reduction>
void Lobpcg<Scalar, Device, Reduction>::allocate(std::size_t n, std::size_t b) const {
  if (cur_.V.extent(0) == n && cur_.V.extent(1) == 3 * b) return;
  const auto make = [n](const char* label, std::size_t cols) {
    return multivector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n,
                            cols);
  };
  for (Buffers* s : {&cur_, &next_}) {
    s->V = make("kelp::Lobpcg::V", 3 * b);
    s->AV = make("kelp::Lobpcg::AV", 3 * b);
    s->BV = B_ ? make("kelp::Lobpcg::BV", 3 * b) : multivector_type();
  }
  R_ = make("kelp::Lobpcg::R", b);
  RA_ = make("kelp::Lobpcg::R_active", b);
  coeff_ = DeviceMatrix("kelp::Lobpcg::coefficients", 9 * b * b, 1);
  lambda_ = Kokkos::View<double*, Device>("kelp::Lobpcg::lambda", b);
}

template <class Scalar, class Device, class Reduction>
void Lobpcg<Scalar, Device, Reduction>::combine(const_multivector_type V, const Scalar* c,
                                                multivector_type Y, Scalar beta) const {
  const std::size_t m = V.extent(1), q = Y.extent(1), n = V.extent(0);
  if (q == 0) return;
  Kokkos::Timer timer;
  using Unmanaged = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Device, Kokkos::MemoryUnmanaged>;
  using HostUnmanaged = Kokkos::View<const Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace,
                                     Kokkos::MemoryUnmanaged>;
  Unmanaged cd(coeff_.data(), m, q);
  Kokkos::deep_copy(cd, HostUnmanaged(c, m, q));
  constexpr std::size_t chunk = impl::lobpcg_chunk<ExecSpace>();
  using F = impl::Combine<Scalar, multivector_type, const_multivector_type, Unmanaged, ExecSpace>;
  Kokkos::parallel_for("kelp::solvers::Lobpcg::combine",
                       Kokkos::RangePolicy<ExecSpace>(0, (n + chunk - 1) / chunk),
                       F{V, cd, Y, beta, n});
  fence();
  timings_->combine += timer.seconds();
}

template <class Scalar, class Device, class Reduction>
void Lobpcg<Scalar, Device, Reduction>::gram_pair_tiled(const const_multivector_type& v,
                                                        const const_multivector_type& av,
                                                        const const_multivector_type& bv,
                                                        std::size_t m, std::vector<Scalar>& GA,
                                                        std::vector<Scalar>& GB) const {
  // GPUs: GramPair's per-thread array of m (m + 1) values overflows what a block of threads can
  // hold for m = 3k beyond a few columns (the H100 stopped with an illegal instruction), so the
  // two Gram matrices come from kernels::gram, whose reductions are 8 x 8 tiles. Both land in one
  // host buffer, summed over processes in one message like the fused form.
  using GramBlock = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  std::vector<Scalar> both(2 * m * m, Scalar(0));
  kernels::gram(v, av, GramBlock(both.data(), m, m));
  kernels::gram(v, bv, GramBlock(both.data() + m * m, m, m));
  reduce_.sum(both.data(), 2 * m * m);
  GA.assign(m * m, Scalar(0));
  GB.assign(m * m, Scalar(0));
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i <= j; ++i) {  // the upper triangles, as the fused form gives them
      GA[i + m * j] = both[i + m * j];
      GB[i + m * j] = both[m * m + i + m * j];
    }
  }
}

template <class Scalar, class Device, class Reduction>
void Lobpcg<Scalar, Device, Reduction>::gram_pair(const Buffers& s, std::size_t m,
                                                  std::vector<Scalar>& GA,
                                                  std::vector<Scalar>& GB) const {
  Kokkos::Timer timer;
  const std::size_t n = s.V.extent(0), pairs = impl::gram_pair_count(m, 0);
  const_multivector_type v = cols(s.V, 0, m), av = cols(s.AV, 0, m), bv = bcols(s, 0, m);
  if constexpr (!Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
    gram_pair_tiled(v, av, bv, m, GA, GB);
    timings_->gram += timer.seconds();
    return;
  }
  Kokkos::View<Scalar*, Kokkos::HostSpace> sums("kelp::Lobpcg::gram", 2 * pairs);
  constexpr std::size_t chunk = impl::lobpcg_chunk<ExecSpace>();
  using F = impl::GramPair<Scalar, const_multivector_type, ExecSpace>;
  Kokkos::parallel_reduce("kelp::solvers::Lobpcg::gram_pair",
                          Kokkos::RangePolicy<ExecSpace>(0, (n + chunk - 1) / chunk),
                          F{2 * pairs, v, av, bv, n, m, 0, pairs}, sums);
  fence();
  reduce_.sum(sums.data(), 2 * pairs);  // one message when distributed
  GA.assign(m * m, Scalar(0));
  GB.assign(m * m, Scalar(0));
  std::size_t idx = 0;
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i <= j; ++i, ++idx) {
      GA[i + m * j] = sums(idx);
      GB[i + m * j] = sums(pairs + idx);
    }
  }
  timings_->gram += timer.seconds();
}

template <class Scalar, class Device, class Reduction>
void Lobpcg<Scalar, Device, Reduction>::residuals(const Buffers& s, std::size_t b,
                                                  const std::vector<double>& lambda,
                                                  std::vector<double>& norms) const {
  Kokkos::Timer timer;
  auto lambda_host = Kokkos::create_mirror_view(lambda_);
  for (std::size_t j = 0; j < b; ++j) lambda_host(j) = lambda[j];
  Kokkos::deep_copy(lambda_, lambda_host);
  using Magnitude = typename Traits::magnitude_type;
  Kokkos::View<Magnitude*, Kokkos::HostSpace> sums("kelp::Lobpcg::residual_norms", b);
  using F = impl::ResidualNorms<Scalar, multivector_type, const_multivector_type,
                                Kokkos::View<double*, Device>>;
  Kokkos::parallel_reduce("kelp::solvers::Lobpcg::residuals",
                          Kokkos::RangePolicy<ExecSpace>(0, s.V.extent(0)),
                          F{b, cols(s.AV, 0, b), bcols(s, 0, b), lambda_, R_}, sums);
  fence();
  reduce_.sum(sums.data(), b);
  norms.resize(b);
  for (std::size_t j = 0; j < b; ++j) norms[j] = std::sqrt(static_cast<double>(sums(j)));
  timings_->combine += timer.seconds();
}

template <class Scalar, class Device, class Reduction>
impl::RayleighRitzInfo Lobpcg<Scalar, Device, Reduction>::rayleigh_ritz(
    std::size_t m, std::size_t b, const std::vector<Scalar>& GA, const std::vector<Scalar>& GB,
    std::vector<double>& theta, std::vector<Scalar>& C) const {
  Kokkos::Timer timer;
  theta.assign(b, 0.0);
  C.assign(m * b, Scalar(0));
  const bool largest = params_.which == EigenWhich::largest;
  // The restart threshold is a condition number; dependent directions are dropped beyond eps.
  const double drop = 1e-14;
  impl::RayleighRitzInfo info;
  if constexpr (Traits::is_complex) {
    using C64 = std::complex<double>;
    info = impl::rayleigh_ritz(static_cast<int>(m), static_cast<int>(b),
                               reinterpret_cast<const C64*>(GA.data()),
                               reinterpret_cast<const C64*>(GB.data()), largest, drop, theta.data(),
                               reinterpret_cast<C64*>(C.data()));
  } else {
    info = impl::rayleigh_ritz(static_cast<int>(m), static_cast<int>(b), GA.data(), GB.data(),
                               largest, drop, theta.data(), C.data());
  }
  timings_->rayleigh_ritz += timer.seconds();
  return info;
}

template <class Scalar, class Device, class Reduction>
LobpcgResult Lobpcg<Scalar, Device, Reduction>::solve(multivector_type X, LobpcgStart start) const {
  const ProfilingRegion region("kelp::solvers::Lobpcg::solve");
  const std::size_t n = A_->num_rows(), k = params_.num_eigenpairs;
  const std::size_t b = k + params_.guard_vectors;
  KELP_REQUIRE(X.extent(0) == n && X.extent(1) == k, DimensionMismatch,
               "kelp::solvers::Lobpcg::solve: dimension mismatch: X is "
                   << X.extent(0) << " x " << X.extent(1) << ", expected " << n << " x " << k
                   << " (rows of A x num_eigenpairs)");
  LobpcgResult result;
  timings_ = &result.timings;
  Kokkos::Timer total;
  allocate(n, b);
  const auto timed = [this](double& slot, auto&& work) {
    Kokkos::Timer timer;
    work();
    fence();
    slot += timer.seconds();
  };
  const auto apply_ab = [&](Buffers& s, std::size_t first, std::size_t count) {
    timed(timings_->apply_a, [&] { A_->apply(cols(s.V, first, count), cols(s.AV, first, count)); });
    if (B_) {
      timed(timings_->apply_b, [&] { B_->apply(cols(s.V, first, count), cols(s.BV, first, count)); });
    }
  };

  // Start: random (or given) block, made B-orthonormal Ritz vectors by one Rayleigh-Ritz step.
  {
    auto host = Kokkos::create_mirror_view(cur_.V);
    std::mt19937_64 rng(static_cast<unsigned>(params_.seed));
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (std::size_t j = 0; j < b; ++j) {
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (Traits::is_complex) {
          const double re = uniform(rng);
          host(i, j) = Scalar(re, uniform(rng));
        } else {
          host(i, j) = Scalar(uniform(rng));
        }
      }
    }
    Kokkos::deep_copy(cur_.V, host);
    if (start == LobpcgStart::provided) Kokkos::deep_copy(cols(cur_.V, 0, k), X);
  }
  apply_ab(cur_, 0, b);
  std::vector<Scalar> GA, GB, C;
  std::vector<double> lambda, norms;
  gram_pair(cur_, b, GA, GB);
  impl::RayleighRitzInfo info = rayleigh_ritz(b, b, GA, GB, lambda, C);
  std::vector<char> active(b, 1);
  result.converged_at.assign(k, -1);
  const auto finish = [&](StopReason reason) {
    result.reason = reason;
    result.eigenvalues.assign(lambda.begin(), lambda.begin() + std::min(k, lambda.size()));
    result.residual_norms.assign(norms.begin(), norms.begin() + std::min(k, norms.size()));
    Kokkos::deep_copy(X, cols(cur_.V, 0, k));
    result.timings.total = total.seconds();
    timings_ = nullptr;
    return result;
  };
  const auto tolerance = [this](double l) {
    return std::max(params_.relative_tolerance * std::abs(l), params_.absolute_tolerance);
  };
  // Updates the norms, the history and the active set (monotonic: soft locking); true while a
  // wanted pair is still active.
  const auto check = [&](int it) {
    residuals(cur_, b, lambda, norms);
    result.residual_history.emplace_back(norms.begin(), norms.begin() + k);
    bool any = false;
    for (std::size_t j = 0; j < k; ++j) {
      if (active[j] && norms[j] <= tolerance(lambda[j])) {
        active[j] = 0;
        result.converged_at[j] = it;
      }
      any = any || active[j];
    }
    if (!any) std::fill(active.begin() + k, active.end(), 0);  // guards stop with the wanted ones
    return any;
  };
  const auto non_finite = [&] {
    return std::any_of(norms.begin(), norms.end(), [](double x) { return !std::isfinite(x); });
  };
  // The residuals above come from AX (BX) updated through the Ritz coefficients, which drift from
  // A X in rounding. Convergence is confirmed on A X (B X) applied afresh; pairs that miss the
  // tolerance then become active again (with the guards), and the iteration goes on without P.
  const auto confirmed = [&] {
    apply_ab(cur_, 0, b);
    residuals(cur_, b, lambda, norms);
    bool all = true;
    for (std::size_t j = 0; j < k; ++j) {
      if (!(norms[j] <= tolerance(lambda[j]))) {
        active[j] = 1;
        result.converged_at[j] = -1;
        all = false;
      }
    }
    if (!all) std::fill(active.begin() + k, active.end(), 1);
    return all;
  };
  if (info.status != 0) {
    return finish(info.status == 1 ? StopReason::non_finite : StopReason::breakdown);
  }
  combine(cols(cur_.V, 0, b), C.data(), cols(next_.V, 0, b), Scalar(0));
  combine(cols(cur_.AV, 0, b), C.data(), cols(next_.AV, 0, b), Scalar(0));
  if (B_) combine(cols(cur_.BV, 0, b), C.data(), cols(next_.BV, 0, b), Scalar(0));
  std::swap(cur_, next_);
  bool running = check(0);
  if (non_finite()) return finish(StopReason::non_finite);
  if (!running) running = !confirmed();

  std::size_t num_p = 0;  // columns of P, at [b, b + num_p) of V
  std::vector<std::size_t> act;
  std::vector<Scalar> GA2, GB2, C2, projection;
  while (running && result.iterations < params_.max_iterations) {
    const int it = ++result.iterations;
    act.clear();
    for (std::size_t j = 0; j < b; ++j) {
      if (active[j]) act.push_back(j);
    }
    const std::size_t a = act.size(), w0 = b + num_p, m = w0 + a;
    // W = M^{-1} R_active
    multivector_type W = cols(cur_.V, w0, a);
    {
      Kokkos::Timer timer;
      multivector_type RA = cols(RA_, 0, a);
      for (std::size_t t = 0; t < a; ++t) {
        Kokkos::deep_copy(Kokkos::subview(M_ ? RA : W, Kokkos::ALL, t),
                          Kokkos::subview(R_, Kokkos::ALL, act[t]));
      }
      fence();
      timings_->combine += timer.seconds();
      if (M_) timed(timings_->preconditioner, [&] { M_->apply(RA, W); });
    }
    // W -= X (BX)^H W: W B-orthogonal to the current Ritz vectors.
    {
      Kokkos::Timer timer;
      Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace> XBW("kelp::Lobpcg::XBW", b, a);
      reduce_.gram(bcols(cur_, 0, b), W, XBW);
      timings_->gram += timer.seconds();
      projection.resize(b * a);
      for (std::size_t t = 0; t < b * a; ++t) projection[t] = -XBW.data()[t];
      combine(cols(cur_.V, 0, b), projection.data(), W, Scalar(1));
    }
    apply_ab(cur_, w0, a);
    gram_pair(cur_, m, GA, GB);
    info = rayleigh_ritz(m, b, GA, GB, lambda, C);
    if (num_p > 0 && (info.status != 0 || info.condition > params_.restart_condition)) {
      // Restart: the same step without P, from the submatrices of the Gram pair.
      std::vector<std::size_t> keep;
      for (std::size_t i = 0; i < m; ++i) {
        if (i < b || i >= w0) keep.push_back(i);
      }
      const std::size_t m2 = keep.size();
      GA2.assign(m2 * m2, Scalar(0));
      GB2.assign(m2 * m2, Scalar(0));
      for (std::size_t j = 0; j < m2; ++j) {
        for (std::size_t i = 0; i <= j; ++i) {
          GA2[i + m2 * j] = GA[keep[i] + m * keep[j]];
          GB2[i + m2 * j] = GB[keep[i] + m * keep[j]];
        }
      }
      const auto info2 = rayleigh_ritz(m2, b, GA2, GB2, lambda, C2);
      if (info2.status == 0 || info.status != 0) {
        info = info2;
        C.assign(m * b, Scalar(0));
        for (std::size_t j = 0; j < b; ++j) {
          for (std::size_t i = 0; i < m2; ++i) C[keep[i] + m * j] = C2[i + m2 * j];
        }
        ++result.restarts;
      }
    }
    if (info.status != 0) {
      return finish(info.status == 1 ? StopReason::non_finite : StopReason::breakdown);
    }
    // X = V C (and AX, BX with the same coefficients: no operator application)
    combine(cols(cur_.V, 0, m), C.data(), cols(next_.V, 0, b), Scalar(0));
    combine(cols(cur_.AV, 0, m), C.data(), cols(next_.AV, 0, b), Scalar(0));
    if (B_) combine(cols(cur_.BV, 0, m), C.data(), cols(next_.BV, 0, b), Scalar(0));
    std::swap(cur_, next_);  // residuals read the new X; the old basis lives on in next_
    running = check(it);
    if (non_finite()) return finish(StopReason::non_finite);
    if (!running) running = !confirmed();
    // P = [P W] C_[P W] for the pairs that stay active, at [b, b + num_p) of the new basis.
    std::size_t a_next = 0;
    C2.clear();
    for (std::size_t j = 0; j < b; ++j) {
      if (!active[j]) continue;
      ++a_next;
      C2.insert(C2.end(), C.begin() + m * j + b, C.begin() + m * (j + 1));
    }
    num_p = running ? a_next : 0;
    if (num_p > 0) {
      combine(cols(next_.V, b, m - b), C2.data(), cols(cur_.V, b, num_p), Scalar(0));
      combine(cols(next_.AV, b, m - b), C2.data(), cols(cur_.AV, b, num_p), Scalar(0));
      if (B_) combine(cols(next_.BV, b, m - b), C2.data(), cols(cur_.BV, b, num_p), Scalar(0));
    }
  }
  return finish(running ? StopReason::max_iterations : StopReason::converged_relative);
}

// Compiled once for double and complex<double> (the dense step is double precision), in
// solvers/eti/.
#define KELP_LOBPCG_ETI(PREFIX, S) PREFIX template class Lobpcg<S, DefaultDevice, LocalReduction>;
KELP_LOBPCG_ETI(extern, double)
KELP_LOBPCG_ETI(extern, Kokkos::complex<double>)

}  // namespace kelp::solvers

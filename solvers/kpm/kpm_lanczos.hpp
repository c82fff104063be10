#pragma once
/// Spectral bounds of a Hermitian operator by Lanczos, one algorithm for one process
/// (lanczos_bounds on a CrsMatrix, LocalReduction) and for many (the distributed dos task,
/// dist::DistOperator and dist::MpiReduction): the same start vector, drawn by GLOBAL row, and
/// the same arithmetic, so the bounds agree to rounding for every rank count.
///
/// Why it is not the textbook three-term recurrence alone (audit of the dos task):
///   - the start vector has uniform random entries in [-1, 1), not +-1: lattice eigenvectors are
///     often +-1 patterns, to which a +-1 vector is exactly orthogonal with high probability (a
///     periodic 6-site chain missed its top eigenvalue for half of the seeds);
///   - every new vector is reorthogonalized against all earlier ones (classical Gram-Schmidt,
///     a second pass where the first removed most of it): without it orthogonality is lost
///     after a few steps on small problems, ghost Ritz values and rounding decide the bounds
///     (serial and 2-rank bounds differed by 3 %);
///   - a breakdown (beta ~ 0: the Krylov space is invariant, e.g. degenerate eigenvalues) is not
///     convergence: the run restarts from a fresh random vector orthogonal to the basis, so the
///     eigenvalues outside the invariant subspace are still found;
///   - the extreme Ritz values are widened by the last |beta| (the residual of the whole Krylov
///     space, which bounds every Ritz residual |beta s_last|): the Ritz residual alone is not an
///     enclosure while the Ritz values are far from converged (Zhou and Li, Linear Algebra
///     Appl. 435, 2011), and the moment growth check behind it is weak (kpm_moment_helpers.hpp);
///     with all n steps the last beta is ~0 and the bounds are the extreme eigenvalues;
///   - the result is intersected with Gershgorin, so it is never looser than that.
/// Cost: `steps` products and O(steps^2) dots and axpys (about steps^2 n scalars of traffic);
/// memory: `steps` vectors of the local rows.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/kpm/impl/kpm_kernels.hpp"
#include "kelp/solvers/kpm/impl/kpm_tridiagonal.hpp"
#include "kelp/solvers/kpm/kpm_params.hpp"
#include "kelp/solvers/reduction.hpp"

namespace kelp::solvers {

namespace impl {

/// q(i) uniform in [-1, 1) from the hash of (seed, global row, draw): with global_row set (a
/// rank's rows), row i of q is row global_row(i) of the one global vector.
template <class Vector>
struct KpmLanczosStart {
  Vector q;
  std::uint64_t seed;
  std::uint64_t draw;
  Kokkos::View<const long long*, typename Vector::memory_space> global_row;
  KOKKOS_INLINE_FUNCTION void operator()(const long long local) const {
    const long long i = global_row.extent(0) > 0 ? global_row(local) : local;
    const std::uint64_t h = kpm_hash(seed, static_cast<std::uint64_t>(i), draw);
    q(local) = typename Vector::non_const_value_type(2.0 * static_cast<double>(h >> 11) * 0x1.0p-53 - 1.0);
  }
};

/// x <- x - sum_k <Q_k|x> Q_k by classical Gram-Schmidt, the second pass only when the first
/// removed most of x (its norm fell below 1/sqrt(2) of what it was: the criterion of Daniel,
/// Gragg, Kaufman and Stewart, 1976); otherwise one pass leaves rounding-level components along
/// Q. After the three-term recurrence w is nearly orthogonal to Q already, so a Lanczos step
/// mostly takes one pass: always two made the bounds of a 10^6-row TI Hamiltonian (30 steps)
/// cost 3.7 s on 2 cores, more than its moments. The test uses reduced norms, so every rank
/// takes the same branch. Returns ||x|| on exit (the caller's next beta or normalisation).
template <class Vector, class Reduction>
double orthogonalize_against(const std::vector<Vector>& Q, const Vector& x, const Reduction& reduce) {
  using Scalar = typename Vector::non_const_value_type;
  double norm = static_cast<double>(reduce.norm2(x));
  std::vector<Scalar> c(Q.size());
  for (int pass = 0; pass < 2 && !Q.empty(); ++pass) {
    for (std::size_t k = 0; k < Q.size(); ++k) c[k] = reduce.dot(Q[k], x);
    for (std::size_t k = 0; k < Q.size(); ++k) kernels::axpby(Scalar(-c[k]), Q[k], Scalar(1), x);
    const double before = norm;
    norm = static_cast<double>(reduce.norm2(x));
    if (!(norm < 0.7071067811865476 * before)) break;  // NaN: no second pass either
  }
  return norm;
}

/// q = a random unit vector (draw `draw`) orthogonal to Q. False (on every rank alike: the test
/// uses reduced norms) when it lies in the span of Q to rounding, i.e. Q spans the whole space.
template <class Vector, class Reduction>
bool lanczos_start(const std::vector<Vector>& Q, std::uint64_t seed, std::uint64_t draw,
                   const Kokkos::View<const long long*, typename Vector::memory_space>& global_row,
                   const Reduction& reduce, Ordinal n, Vector& q) {
  using Scalar = typename Vector::non_const_value_type;
  using Exec = typename Vector::execution_space;
  q = Vector("kelp::solvers::kpm_lanczos_bounds::q", n);
  Kokkos::parallel_for("kelp::solvers::kpm_lanczos_bounds(start)", Kokkos::RangePolicy<Exec>(0, n),
                       KpmLanczosStart<Vector>{q, seed, draw, global_row});
  const double before = static_cast<double>(reduce.norm2(q));
  const double after = orthogonalize_against(Q, q, reduce);
  if (!(after > 1e-8 * before)) return false;
  kernels::scal(Scalar(1.0 / after), q);
  return true;
}

}  // namespace impl

/// Bounds [theta_min - |beta|, theta_max + |beta|] of the Hermitian operator H (this rank's rows;
/// every rank calls it alike) from min(steps, global_rows) Lanczos steps with full
/// reorthogonalization and restarts after a breakdown (see the file comment), intersected with
/// the given Gershgorin bounds (returned as they are for a zero or non-finite scale).
/// @param[in] global_row  each local row's global index (empty: row i is i, one process)
/// @throws InvalidArgument for steps < 1
template <class Scalar, class Device, class Reduction = LocalReduction>
SpectralBounds kpm_lanczos_bounds(const Operator<Scalar, Device>& H, const SpectralBounds& gershgorin,
                                  long long global_rows, int steps, std::uint64_t seed,
                                  const Kokkos::View<const long long*, typename Device::memory_space>& global_row = {},
                                  const Reduction& reduce = {}) {
  KELP_REQUIRE(steps >= 1, InvalidArgument, "kelp::solvers::lanczos_bounds: steps = " << steps << ", expected >= 1");
  using Vector = VectorView<Scalar, Device>;
  const double scale = std::max(std::abs(gershgorin.lower), std::abs(gershgorin.upper));
  if (global_rows == 0 || !(scale > 0) || !std::isfinite(scale)) return gershgorin;
  const Ordinal n = H.num_rows();
  // A smaller beta means an invariant subspace: after full reorthogonalization a true breakdown
  // leaves beta ~ 1e-16 scale; dropping a coupling this small moves the Ritz values by at most it.
  const double breakdown = 1e-10 * scale;
  std::vector<Vector> Q;
  std::vector<double> alphas, betas;  // betas[j] couples j and j + 1; 0 at a restart
  double dropped = 0;                  // largest coupling dropped at a restart
  std::uint64_t draw = 0;
  Vector q;
  if (!impl::lanczos_start(Q, seed, draw++, global_row, reduce, n, q)) return gershgorin;
  Vector w("kelp::solvers::kpm_lanczos_bounds::w", n);
  double beta = 0;
  const long long max_steps = std::min<long long>(steps, global_rows);
  for (long long j = 0; j < max_steps; ++j) {
    Q.push_back(q);
    H.apply(q, w);                                                             // w = H q_j
    const double alpha = ScalarTraits<Scalar>::real(reduce.dot(q, w));        // alpha_j = <q_j|H q_j>
    kernels::axpby(Scalar(-alpha), q, Scalar(1), w);                           // w -= alpha_j q_j
    if (beta != 0) kernels::axpby(Scalar(-beta), Q[Q.size() - 2], Scalar(1), w);  // w -= beta q_{j-1}
    beta = impl::orthogonalize_against(Q, w, reduce);
    alphas.push_back(alpha);
    if (j + 1 == max_steps) break;
    if (beta > breakdown) {
      betas.push_back(beta);
      q = Vector("kelp::solvers::kpm_lanczos_bounds::q", n);
      kernels::axpby(Scalar(1.0 / beta), w, Scalar(0), q);                    // q_{j+1} = w / beta_j
      continue;
    }
    dropped = std::max(dropped, beta);
    if (!impl::lanczos_start(Q, seed, draw++, global_row, reduce, n, q)) {  // Q spans the space: exact
      beta = 0;
      break;
    }
    betas.push_back(0.0);
    beta = 0;
  }
  const double widen = std::max(std::abs(beta), dropped);
  if (!std::isfinite(widen)) return gershgorin;
  const double theta_min = impl::tridiagonal_eigenvalue(alphas, betas, 0);
  const double theta_max = impl::tridiagonal_eigenvalue(alphas, betas, static_cast<int>(alphas.size()) - 1);
  SpectralBounds bounds{std::max(gershgorin.lower, theta_min - widen), std::min(gershgorin.upper, theta_max + widen)};
  if (!(bounds.lower <= bounds.upper)) bounds = gershgorin;  // NaN or rounding: the safe bounds
  return bounds;
}

}  // namespace kelp::solvers

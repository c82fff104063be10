#pragma once
/// KPM moments of any Hermitian Operator under a reduction policy, so KPM runs on many ranks
/// unchanged: with dist::DistOperator and dist::MpiReduction every rank runs the naive recurrence
/// (kpm.hpp) on its rows, keeps its partial moments, and the moments of all vectors are summed
/// over the ranks ONCE at the end, one allreduce of R x M values (Kreutzer et al., the global
/// reduction after the moment loop). That is exact because the moments are linear in the partial
/// dots: mu_2m = 2 <v_m|v_m> - mu_0 and mu_2m+1 = 2 Re <v_m+1|v_m> - mu_1 summed over ranks give
/// the global moments. Serially (MatrixOperator, LocalReduction) it equals kpm_moments with
/// KpmImplementation::naive. `blocked` runs all R vectors together through the operator's block
/// product (SpMMV; on many ranks one halo exchange per step for the whole block).
///
/// Example (distributed; start = this rank's rows of the global start block):
///   auto H = std::make_shared<dist::DistOperator<double>>(Hd);
///   auto mu = solvers::kpm_operator_moments(*H, scaling, start, 256, 1e-6, dist::MpiReduction());
///   auto rho = solvers::kpm_density(mu.normalised(), scaling, KpmDampingKernel::jackson, 4.0, energies);

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "kelp/kernels/core/operator.hpp"
#include "kelp/solvers/kpm/impl/kpm_kernels.hpp"
#include "kelp/solvers/kpm/impl/kpm_moment_helpers.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "kelp/solvers/reduction.hpp"

namespace kelp::solvers {

namespace impl {
/// T in a non-deduced context: Scalar and Device come from the operator, so a non-const block
/// converts to the const one.
template <class T>
struct NonDeduced {
  using type = T;
};
}  // namespace impl

/// This rank's partial raw moments of the columns of `start` (n_local x R, row-major) into
/// mu[r * num_moments + m], with no reduction and no growth check: the caller sums them over the
/// ranks (once, for any number of calls) and then checks (impl::check_growth). naive: one vector
/// at a time, H.apply and BLAS-1 (kpm.hpp's naive); blocked: all R vectors at once, one
/// H.apply_block (one halo exchange for the block on many ranks) and one fused update with the
/// 2R dots (impl::KpmBlockedUpdate) per step. Every rank calls it with the same R and num_moments.
/// @throws DimensionMismatch when start does not have H's rows or H is not square (locally);
///         InvalidArgument for num_moments < 2 or a bad scaling
template <class Scalar, class Device>
void kpm_operator_partial_moments(
    const Operator<Scalar, Device>& H, const KpmScaling& scaling,
    const typename impl::NonDeduced<ConstMultiVectorView<Scalar, Kokkos::LayoutRight, Device>>::type& start,
    int num_moments, bool blocked, double* mu) {
  constexpr const char* where = "kelp::solvers::kpm_operator_moments";
  KELP_REQUIRE(H.num_rows() == H.num_cols(), DimensionMismatch,
               where << ": H is " << H.num_rows() << " x " << H.num_cols() << " on this rank, expected square");
  KELP_REQUIRE(static_cast<long long>(start.extent(0)) == H.num_rows(), DimensionMismatch,
               where << ": start vectors have " << start.extent(0) << " rows, H has " << H.num_rows());
  KELP_REQUIRE(num_moments >= 2, InvalidArgument, where << ": num_moments = " << num_moments << ", expected >= 2");
  KELP_REQUIRE(scaling.half_width > 0 && std::isfinite(scaling.half_width) && std::isfinite(scaling.center),
               InvalidArgument,
               where << ": scaling center " << scaling.center << ", half_width " << scaling.half_width
                     << "; expected finite with half_width > 0");
  const Ordinal n = H.num_rows();
  const int R = static_cast<int>(start.extent(1));
  if (R == 0) return;
  if (!blocked) {
    VectorView<Scalar, Device> v("kelp::solvers::kpm::v", n), w("kelp::solvers::kpm::w", n),
        u("kelp::solvers::kpm::u", n);
    for (int r = 0; r < R; ++r) {
      Kokkos::deep_copy(v, Kokkos::subview(start, Kokkos::ALL, r));
      impl::naive_recurrence(
          [&](const VectorView<Scalar, Device>& x, const VectorView<Scalar, Device>& y) { H.apply(x, y); }, scaling,
          v, w, u, num_moments, mu + static_cast<std::size_t>(r) * num_moments);
    }
    return;
  }
  using Block = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using Exec = typename Device::execution_space;
  Block V("kelp::solvers::kpm::V", n, R), W("kelp::solvers::kpm::W", n, R), Y("kelp::solvers::kpm::Y", n, R);
  Kokkos::deep_copy(V, start);  // row-major start -> the operator's column-major block
  std::vector<double> sums(2 * static_cast<std::size_t>(R));
  const auto step = [&](double alpha, double beta, double gamma) {
    H.apply(V, Y);  // Y = H V
    impl::KpmBlockedUpdate<Block, Block, Block> f{sums.size(), Y, V, W, alpha, beta, gamma};
    Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> result(sums.data(), sums.size());
    Kokkos::parallel_reduce("kelp::solvers::kpm(operator blocked)", Kokkos::RangePolicy<Exec>(0, n), f, result);
    Exec().fence();
  };
  const double a = scaling.half_width, b = scaling.center;
  step(1.0 / a, -b / a, 0.0);  // W = v_1 = H~ v_0
  for (int c = 0; c < R; ++c) {
    double* mu_c = mu + static_cast<std::size_t>(c) * num_moments;
    mu_c[0] = sums[2 * c];
    mu_c[1] = sums[2 * c + 1];
  }
  for (int m = 1; 2 * m < num_moments; ++m) {
    std::swap(V, W);  // V = v_m, W = v_{m-1}
    step(2.0 / a, -2.0 * b / a, 1.0);
    for (int c = 0; c < R; ++c) {
      impl::store_moment_pair(mu + static_cast<std::size_t>(c) * num_moments, num_moments, m, sums[2 * c],
                              sums[2 * c + 1]);
    }
  }
}

/// Raw moments (as kpm_moments) of the columns of `start` (this rank's rows, n_local x R,
/// row-major) for the operator H; every rank calls it with the same R and num_moments.
/// @throws DimensionMismatch when start does not have H's rows or H is not square (locally);
///         InvalidArgument for num_moments < 2 or a bad scaling; NumericalError (on every rank
///         alike: the check runs on the reduced moments) when a moment grows past |mu_0|.
template <class Scalar, class Device, class Reduction = LocalReduction>
KpmMoments kpm_operator_moments(const Operator<Scalar, Device>& H, const KpmScaling& scaling,
                                const typename impl::NonDeduced<ConstMultiVectorView<Scalar, Kokkos::LayoutRight, Device>>::type& start,
                                int num_moments, double growth_tolerance, Reduction reduce = {}, bool blocked = false) {
  const int R = static_cast<int>(start.extent(1));
  KpmMoments moments;
  moments.num_moments = num_moments;
  moments.num_vectors = R;
  moments.values.assign(static_cast<std::size_t>(R) * std::max(num_moments, 0), 0.0);
  kpm_operator_partial_moments(H, scaling, start, num_moments, blocked, moments.values.data());
  // The one global reduction: every moment of every vector together.
  if (!moments.values.empty()) reduce.sum(moments.values.data(), moments.values.size());
  impl::check_growth(moments, scaling, growth_tolerance);
  return moments;
}

}  // namespace kelp::solvers

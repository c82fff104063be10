#pragma once
/// KPM moments of any Hermitian Operator under a reduction policy, so KPM runs on many ranks
/// unchanged: with dist::DistOperator and dist::MpiReduction every rank runs the naive recurrence
/// (kpm.hpp) on its rows, keeps its partial moments, and the moments of all vectors are summed
/// over the ranks ONCE at the end, one allreduce of R x M values (Kreutzer et al., the global
/// reduction after the moment loop). That is exact because the moments are linear in the partial
/// dots: mu_2m = 2 <v_m|v_m> - mu_0 and mu_2m+1 = 2 Re <v_m+1|v_m> - mu_1 summed over ranks give
/// the global moments. Serially (MatrixOperator, LocalReduction) it equals kpm_moments with
/// KpmImplementation::naive.
///
/// Example (distributed; start = this rank's rows of the global start block):
///   auto H = std::make_shared<dist::DistOperator<double>>(Hd);
///   auto mu = solvers::kpm_operator_moments(*H, scaling, start, 256, 1e-6, dist::MpiReduction());
///   auto rho = solvers::kpm_density(mu.normalised(), scaling, KpmDampingKernel::jackson, 4.0, energies);

#include <cmath>

#include "kelp/kernels/core/operator.hpp"
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

/// Raw moments (as kpm_moments) of the columns of `start` (this rank's rows, n_local x R,
/// row-major) for the operator H; every rank calls it with the same R and num_moments.
/// @throws DimensionMismatch when start does not have H's rows or H is not square (locally);
///         InvalidArgument for num_moments < 2 or a bad scaling; NumericalError (on every rank
///         alike: the check runs on the reduced moments) when a moment grows past |mu_0|.
template <class Scalar, class Device, class Reduction = LocalReduction>
KpmMoments kpm_operator_moments(const Operator<Scalar, Device>& H, const KpmScaling& scaling,
                                const typename impl::NonDeduced<ConstMultiVectorView<Scalar, Kokkos::LayoutRight, Device>>::type& start,
                                int num_moments, double growth_tolerance, Reduction reduce = {}) {
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
  KpmMoments moments;
  moments.num_moments = num_moments;
  moments.num_vectors = R;
  moments.values.assign(static_cast<std::size_t>(R) * num_moments, 0.0);
  VectorView<Scalar, Device> v("kelp::solvers::kpm::v", n), w("kelp::solvers::kpm::w", n),
      u("kelp::solvers::kpm::u", n);
  for (int r = 0; r < R; ++r) {
    Kokkos::deep_copy(v, Kokkos::subview(start, Kokkos::ALL, r));
    impl::naive_recurrence([&](const VectorView<Scalar, Device>& x, const VectorView<Scalar, Device>& y) { H.apply(x, y); },
                           scaling, v, w, u, num_moments, moments.values.data() + static_cast<std::size_t>(r) * num_moments);
  }
  // The one global reduction: every moment of every vector together.
  if (!moments.values.empty()) reduce.sum(moments.values.data(), moments.values.size());
  impl::check_growth(moments, scaling, growth_tolerance);
  return moments;
}

}  // namespace kelp::solvers

#pragma once
/// Reduction policy for vectors distributed over the ranks of an MPI communicator.
///
/// Each rank holds a contiguous block of rows of every vector and multi-vector. Every call
/// reduces the local block with the same kernels as LocalReduction and then combines all its
/// results with exactly one MPI_Allreduce (block results are packed into one buffer), so solvers
/// written against the policy (solvers::Cg, ...) run distributed unchanged and a Gram block costs
/// one message, not k * m. Contract: every rank calls with the same column counts (the message
/// sizes must agree); a shape error is thrown before any communication, so it must hold on all
/// ranks alike (it does when the blocks come from one partitioned multi-vector).
///
/// Example:
///   dist::MpiReduction reduce(MPI_COMM_WORLD);
///   Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", k, m);
///   reduce.gram(X_local, Y_local, G);   // G = X^H Y over all ranks, one MPI_Allreduce

#include <mpi.h>

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::dist {

namespace impl {
template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same<T, double>::value) return MPI_DOUBLE;
  if constexpr (std::is_same<T, float>::value) return MPI_FLOAT;
  if constexpr (std::is_same<T, Kokkos::complex<double>>::value) return MPI_C_DOUBLE_COMPLEX;
  if constexpr (std::is_same<T, Kokkos::complex<float>>::value) return MPI_C_FLOAT_COMPLEX;
  static_assert(std::is_same<T, double>::value || std::is_same<T, float>::value ||
                    std::is_same<T, Kokkos::complex<double>>::value ||
                    std::is_same<T, Kokkos::complex<float>>::value,
                "MpiReduction: scalar type has no MPI datatype");
  return MPI_DATATYPE_NULL;
}

/// In-place sum over the communicator of `count` values (Kokkos::complex is layout-compatible
/// with the C complex types MPI knows).
template <class T>
void allreduce_sum(T* values, std::size_t count, MPI_Comm comm) {
  KELP_REQUIRE(count <= static_cast<std::size_t>(std::numeric_limits<int>::max()), NotSupported,
               "kelp::dist::MpiReduction: " << count << " values in one allreduce exceed MPI's int count");
  MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), mpi_type<T>(), MPI_SUM, comm);
}
}  // namespace impl

class MpiReduction {
 public:
  explicit MpiReduction(MPI_Comm comm = MPI_COMM_WORLD) : comm_(comm) {}

  /// conj(x)^T y over all ranks.
  template <class X, class Y>
  typename Y::non_const_value_type dot(const X& x, const Y& y) const {
    auto value = kernels::dot(x, y);
    impl::allreduce_sum(&value, 1, comm_);
    return value;
  }

  /// (conj(x1)^T y1, conj(x2)^T y2) over all ranks, in one allreduce.
  template <class X1, class Y1, class X2, class Y2>
  auto dots(const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) const {
    const auto local = kernels::dots(x1, y1, x2, y2);
    typename Y1::non_const_value_type values[2] = {local.first, local.second};
    impl::allreduce_sum(values, 2, comm_);
    return std::make_pair(values[0], values[1]);
  }

  /// Sums values[0..count) over all ranks in place, in one allreduce (local sums computed by a
  /// fused kernel).
  template <class T>
  void sum(T* values, std::size_t count) const {
    impl::allreduce_sum(values, count, comm_);
  }

  /// ||x||_2 over all ranks.
  template <class X>
  auto norm2(const X& x) const {
    auto local = kernels::nrm2(x);
    auto squared = local * local;
    impl::allreduce_sum(&squared, 1, comm_);
    return std::sqrt(squared);
  }

  /// G = X^H Y over all ranks (X n_local x k, Y n_local x m, G k x m): one allreduce.
  template <class X, class Y>
  void gram(const X& x, const Y& y,
            Kokkos::View<typename Y::non_const_value_type**, Kokkos::LayoutLeft, Kokkos::HostSpace> g) const {
    using Scalar = typename Y::non_const_value_type;
    // A contiguous buffer: G may be a column-range subview with a leading dimension > k.
    Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace> local("kelp::dist::gram", g.extent(0),
                                                                        g.extent(1));
    kernels::gram(x, y, local);
    impl::allreduce_sum(local.data(), local.size(), comm_);
    for (std::size_t j = 0; j < g.extent(1); ++j) {
      for (std::size_t i = 0; i < g.extent(0); ++i) g(i, j) = local(i, j);
    }
  }

  /// r(j) = conj(X(:, j))^T Y(:, j) over all ranks: one allreduce.
  template <class X, class Y>
  void column_dots(const X& x, const Y& y,
                   Kokkos::View<typename Y::non_const_value_type*, Kokkos::HostSpace> r) const {
    using Scalar = typename Y::non_const_value_type;
    Kokkos::View<Scalar*, Kokkos::HostSpace> local("kelp::dist::column_dots", r.extent(0));
    kernels::dot(x, y, local);
    impl::allreduce_sum(local.data(), local.size(), comm_);
    for (std::size_t j = 0; j < r.extent(0); ++j) r(j) = local(j);
  }

  /// r1(j) = conj(X1(:, j))^T Y1(:, j), r2(j) = conj(X2(:, j))^T Y2(:, j) over all ranks: one
  /// pass over the local rows and one allreduce for both.
  template <class X1, class Y1, class X2, class Y2>
  void column_dots(const X1& x1, const Y1& y1, const X2& x2, const Y2& y2,
                   Kokkos::View<typename Y1::non_const_value_type*, Kokkos::HostSpace> r1,
                   Kokkos::View<typename Y1::non_const_value_type*, Kokkos::HostSpace> r2) const {
    using Scalar = typename Y1::non_const_value_type;
    const std::size_t k1 = r1.extent(0), k2 = r2.extent(0);
    Kokkos::View<Scalar*, Kokkos::HostSpace> local("kelp::dist::column_dots", k1 + k2);
    const auto local1 = Kokkos::subview(local, std::make_pair(std::size_t(0), k1));
    const auto local2 = Kokkos::subview(local, std::make_pair(k1, k1 + k2));
    kernels::column_dots(x1, y1, x2, y2, local1, local2);
    impl::allreduce_sum(local.data(), local.size(), comm_);
    for (std::size_t j = 0; j < k1; ++j) r1(j) = local1(j);
    for (std::size_t j = 0; j < k2; ++j) r2(j) = local2(j);
  }

  /// r(j) = ||X(:, j)||_2 over all ranks: one allreduce (of the squared local norms).
  template <class X>
  void column_norms(
      const X& x,
      Kokkos::View<typename ScalarTraits<typename X::non_const_value_type>::magnitude_type*, Kokkos::HostSpace> r)
      const {
    using Mag = typename ScalarTraits<typename X::non_const_value_type>::magnitude_type;
    Kokkos::View<Mag*, Kokkos::HostSpace> local("kelp::dist::column_norms", r.extent(0));
    kernels::nrm2(x, local);
    for (std::size_t j = 0; j < local.extent(0); ++j) local(j) *= local(j);
    impl::allreduce_sum(local.data(), local.size(), comm_);
    for (std::size_t j = 0; j < local.extent(0); ++j) r(j) = std::sqrt(local(j));
  }

  MPI_Comm communicator() const { return comm_; }

 private:
  MPI_Comm comm_;
};

}  // namespace kelp::dist

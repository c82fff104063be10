#pragma once
/// Reduction policy for vectors distributed over the ranks of an MPI communicator.
///
/// Each rank holds a contiguous block of every vector. dot/dots/norm2 reduce the local block with
/// the same kernels as LocalReduction and then combine with one MPI_Allreduce, so solvers written
/// against the policy (solvers::Cg, ...) run distributed unchanged. dots() costs one message for
/// both inner products.

#include <mpi.h>

#include <cmath>
#include <type_traits>
#include <utility>

#include "kelp/kernels/blas1.hpp"
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
void allreduce_sum(T* values, int count, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, values, count, mpi_type<T>(), MPI_SUM, comm);
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

  /// ||x||_2 over all ranks.
  template <class X>
  auto norm2(const X& x) const {
    auto local = kernels::nrm2(x);
    auto squared = local * local;
    impl::allreduce_sum(&squared, 1, comm_);
    return std::sqrt(squared);
  }

  MPI_Comm communicator() const { return comm_; }

 private:
  MPI_Comm comm_;
};

}  // namespace kelp::dist

#pragma once
/// Explicit template instantiation (ETI) of Kelp's standard types.
///
/// Kelp's heavy templates (SpMV bodies, BLAS-1, solvers, preconditioners) are compiled once per
/// standard scalar, with Kelp's ordinal/offset types and the default device and its layouts, in
/// the eti/ folder of each area. Headers declare them `extern template`, so code that includes
/// them links to that one copy instead of compiling its own: compile time (above all nvcc's)
/// grows with the library, not with the number of executables. Other types still work: they are
/// compiled where they are used.
///
///   KELP_ETI_FOR_EACH_SCALAR(MACRO, PREFIX) expands MACRO(PREFIX, S) for each standard scalar S;
///   PREFIX is `extern` in headers and empty in the eti/ .cpp files.

#include "kelp/kernels/core/types.hpp"

#define KELP_ETI_FOR_EACH_SCALAR(MACRO, PREFIX) \
  MACRO(PREFIX, float)                          \
  MACRO(PREFIX, double)                         \
  MACRO(PREFIX, Kokkos::complex<double>)

/// An empty PREFIX for the eti/ .cpp files.
#define KELP_ETI_DEFINE

namespace kelp::eti {
/// Multi-vector forms by layout, as single names (macro arguments cannot hold commas).
template <class S>
using Left = MultiVectorView<S, Kokkos::LayoutLeft>;
template <class S>
using ConstLeft = ConstMultiVectorView<S, Kokkos::LayoutLeft>;
template <class S>
using Right = MultiVectorView<S, Kokkos::LayoutRight>;
template <class S>
using ConstRight = ConstMultiVectorView<S, Kokkos::LayoutRight>;
}  // namespace kelp::eti

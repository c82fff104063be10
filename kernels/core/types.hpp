#pragma once
/// Kelp's default types and view aliases.

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace kelp {

/// Execution space and memory space that Kelp's containers use unless told otherwise.
using DefaultExecutionSpace = Kokkos::DefaultExecutionSpace;
using DefaultDevice = Kokkos::Device<DefaultExecutionSpace, DefaultExecutionSpace::memory_space>;
/// Host device used for mirrors and host-side assembly.
using HostDevice = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;

/// Row/column index type (local indices). 32 bits halves index traffic in SpMV.
using Ordinal = int;
/// Row-pointer type: 64 bits, so nnz may exceed 2^31.
using Offset = std::int64_t;

/// Vectors are rank-1 views; multi-vectors rank-2 views (LayoutLeft: column-major, LayoutRight:
/// row-major, the latter for blocked SpMMV as in KPM).
template <class Scalar, class Device = DefaultDevice>
using VectorView = Kokkos::View<Scalar*, Kokkos::LayoutLeft, Device>;
template <class Scalar, class Device = DefaultDevice>
using ConstVectorView = Kokkos::View<const Scalar*, Kokkos::LayoutLeft, Device>;
template <class Scalar, class Layout = Kokkos::LayoutLeft, class Device = DefaultDevice>
using MultiVectorView = Kokkos::View<Scalar**, Layout, Device>;
template <class Scalar, class Layout = Kokkos::LayoutLeft, class Device = DefaultDevice>
using ConstMultiVectorView = Kokkos::View<const Scalar**, Layout, Device>;

}  // namespace kelp

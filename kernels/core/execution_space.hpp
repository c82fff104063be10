#pragma once
/// Execution-space instances in kernel signatures.
///
/// Every public kernel (BLAS-1, block reductions, SpMV) has an overload that takes an
/// execution-space instance first, as Kokkos Kernels does:
///
///   kernels::axpby(exec, alpha, x, beta, y);
///   kernels::spmv(exec, handle, SpmvMode::no_transpose, alpha, A, x, beta, y);
///
/// All of the kernel's work is launched on that instance (RangePolicy<ExecSpace>(exec, 0, n),
/// TeamPolicy likewise, deep_copy(exec, ...)), so on a GPU it runs in the instance's stream and
/// can overlap work in other streams (halo exchange). A result returned on the host (a dot, a
/// norm, a Gram block) fences that instance only, not the whole device. The overloads without an
/// instance pass a default-constructed instance of the views' execution space.
///
/// Where instances come from: Kokkos 3.4.1 has no Kokkos::Experimental::partition_space (it came
/// in a later release). On CUDA an instance wraps a stream (Kokkos::Cuda(stream)); on OpenMP and
/// Serial every instance is the default one, so there the instance only selects the space.

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::impl {

/// Enables an overload only when E is a Kokkos execution space (it disambiguates
/// dot(exec, x, y) from dot(X, Y, result) and nrm2(exec, x) from nrm2(X, result)).
template <class E>
using if_execution_space = std::enable_if_t<Kokkos::is_execution_space<E>::value, int>;

/// Enables an overload only when V is a Kokkos view.
template <class V>
using if_view = std::enable_if_t<Kokkos::is_view<V>::value, int>;

/// Whether instances of ExecSpace can run kernels on the data of view V.
template <class ExecSpace, class V>
constexpr bool can_access() {
  return Kokkos::SpaceAccessibility<ExecSpace, typename V::memory_space>::accessible;
}

/// Whether the compiled (ETI) bodies serve these views on instances of ExecSpace: every view has
/// a standard form (kernels/core/standard_views.hpp) and ExecSpace is the views' own space.
template <class ExecSpace, class Device, class... Views>
constexpr bool use_standard_forms() {
  return std::is_same<ExecSpace, typename Device::execution_space>::value &&
         (has_standard_form<Views, Device>::value && ...);
}

/// As use_standard_forms, for bodies compiled for LayoutLeft multi-vectors only.
template <class ExecSpace, class Device, class... Views>
constexpr bool use_left_forms() {
  return use_standard_forms<ExecSpace, Device, Views...>() &&
         (std::is_same<typename Views::array_layout, Kokkos::LayoutLeft>::value && ...);
}

}  // namespace kelp::impl

#pragma once
/// The standard forms of vector and multi-vector views that Kelp's compiled (ETI) kernels take.
///
/// A rank-1 view with a contiguous layout (LayoutLeft or LayoutRight, any memory traits) is
/// viewed as VectorView; a rank-2 LayoutLeft or LayoutRight view as the MultiVectorView of its
/// layout. Public entry points convert to these forms (no copy: a view of the same data), so one
/// compiled body serves managed, unmanaged and const views alike. Strided views have no standard
/// form; kernels compile their body for them where they are called.

#include <type_traits>

#include "kelp/kernels/core/types.hpp"

namespace kelp::impl {

template <class V, class Device, class = void>
struct has_standard_form : std::false_type {};

template <class V, class Device>
struct has_standard_form<V, Device, std::enable_if_t<Kokkos::is_view<V>::value>> {
  using value_type = typename V::non_const_value_type;
  using layout = typename V::array_layout;
  static constexpr bool contiguous = std::is_same<layout, Kokkos::LayoutLeft>::value ||
                                     std::is_same<layout, Kokkos::LayoutRight>::value;
  static constexpr bool same_device =
      std::is_same<typename V::memory_space, typename Device::memory_space>::value &&
      std::is_same<typename V::execution_space, typename Device::execution_space>::value;
  static constexpr bool value = contiguous && same_device && (V::rank == 1 || V::rank == 2);
  /// The standard form (mutable values) and its const-value counterpart.
  using type = std::conditional_t<V::rank == 1, VectorView<value_type, Device>,
                                  MultiVectorView<value_type, layout, Device>>;
  using const_type = std::conditional_t<V::rank == 1, ConstVectorView<value_type, Device>,
                                        ConstMultiVectorView<value_type, layout, Device>>;
};

}  // namespace kelp::impl

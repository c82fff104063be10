#pragma once
/// Lets kernels written for multi-vectors (x(i, j)) also take plain vectors, seen as n x 1.

#include <Kokkos_Core.hpp>
#include <cstddef>

namespace kelp::impl {

/// A rank-1 view seen as an n x 1 multi-vector (works for strided vectors too).
template <class V>
struct VectorAsColumn {
  static constexpr unsigned rank = 2;
  using non_const_value_type = typename V::non_const_value_type;
  using execution_space = typename V::execution_space;
  using memory_space = typename V::memory_space;
  V v;
  KOKKOS_INLINE_FUNCTION typename V::reference_type operator()(const std::size_t i,
                                                              const std::size_t) const {
    return v(i);
  }
  KOKKOS_INLINE_FUNCTION std::size_t extent(const unsigned r) const {
    return r == 0 ? v.extent(0) : 1;
  }
  const void* data() const { return v.data(); }
};

/// as_columns(v): v itself for a rank-2 view, an n x 1 adaptor for a rank-1 view.
template <class V>
auto as_columns(const V& v) {
  if constexpr (V::rank == 1) {
    return VectorAsColumn<V>{v};
  } else {
    return v;
  }
}

}  // namespace kelp::impl

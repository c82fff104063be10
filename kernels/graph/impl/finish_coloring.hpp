#pragma once
/// Turns the 1-based colors of the coloring kernels into 0-based ones and counts them.

#include <Kokkos_Core.hpp>

#include "kelp/kernels/graph/graph_types.hpp"

namespace kelp::kernels::impl {

/// colors(v) -= 1 for every v; returns the number of colors (max + 1, 0 for no vertices).
template <class Device>
Ordinal finish_coloring(Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  Ordinal max_color = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::graph::finish_coloring",
      Kokkos::RangePolicy<Exec>(0, static_cast<Ordinal>(colors.extent(0))),
      KOKKOS_LAMBDA(const Ordinal v, Ordinal& m) {
        const Ordinal c = colors(v);
        colors(v) = c - 1;
        if (c > m) m = c;
      },
      Kokkos::Max<Ordinal>(max_color));
  return colors.extent(0) == 0 ? 0 : max_color;  // Max's identity is the lowest Ordinal
}

}  // namespace kelp::kernels::impl

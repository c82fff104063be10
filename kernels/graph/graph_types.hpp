#pragma once
/// Result types of the graph kernels (coloring, MIS-2, aggregation) and of their checkers.
///
/// A graph is a CrsGraph: vertex i's neighbours are entries(k) for k in [row_map(i), row_map(i+1)).
/// Kernels that need an undirected graph document it; symmetrize() turns any square pattern into
/// the pattern of A + A^T without self loops. Self loops are ignored everywhere.

#include <string>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::kernels {

/// The graph type of the graph kernels.
template <class Device = DefaultDevice>
using Graph = CrsGraph<Ordinal, Offset, Device>;

/// A vertex coloring: colors(v) in [0, num_colors) for every vertex v.
template <class Device = DefaultDevice>
struct Coloring {
  Kokkos::View<Ordinal*, Device> colors;
  Ordinal num_colors = 0;
  int rounds = 0;  ///< speculation/resolution rounds (or priority rounds in deterministic mode)
};

/// A distance-2 maximal independent set: its vertices in increasing order.
template <class Device = DefaultDevice>
struct Mis2 {
  Kokkos::View<Ordinal*, Device> vertices;
  Ordinal size = 0;
  int rounds = 0;  ///< priority rounds until every vertex was decided
};

/// A partition of the vertices into aggregates: aggregates(v) in [0, num_aggregates).
template <class Device = DefaultDevice>
struct Aggregation {
  Kokkos::View<Ordinal*, Device> aggregates;
  Ordinal num_aggregates = 0;
};

/// Outcome of a checker: valid, or the first violation found, in words.
struct GraphCheck {
  bool valid = true;
  std::string reason;  ///< empty when valid
  explicit operator bool() const { return valid; }
};

}  // namespace kelp::kernels

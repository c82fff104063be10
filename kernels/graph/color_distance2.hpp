#pragma once
/// Distance-2 coloring of a graph and bipartite (partial distance-2) coloring of the rows or
/// columns of a rectangular pattern.

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/color_d2_speculative.hpp"
#include "kelp/kernels/graph/impl/finish_coloring.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"
#include "kelp/kernels/graph/symmetrize.hpp"

namespace kelp::kernels {

/// Colors the vertices of g so that vertices at distance 1 or 2 get different colors.
///
/// [in] g: square, structurally symmetric graph (symmetrize() a nonsymmetric one); self loops
///      are ignored.
/// Speculative, vertex-based; the result may differ between thread counts. Colors in
/// [0, num_colors). Cost: O(sum of squared degrees) per round.
/// Throws DimensionMismatch for a non-square graph, InvalidArgument for a malformed one.
template <class Device>
Coloring<Device> color_distance2(const Graph<Device>& g) {
  impl::require_valid_graph(g, "kelp::kernels::color_distance2", true);
  impl::TwoHop<Device> hops{g.row_map(), g.entries(), g.row_map(), g.entries(), true};
  Coloring<Device> result;
  result.colors = Kokkos::View<Ordinal*, Device>("kelp::kernels::color_distance2::colors", g.num_rows());
  result.rounds = impl::color_two_hop_speculative(hops, g.num_rows(), result.colors);
  result.num_colors = impl::finish_coloring(result.colors);
  return result;
}

/// Which side of a rectangular pattern bipartite coloring colors.
enum class BipartiteSide {
  rows,     ///< rows sharing a column get different colors (one color = rows with disjoint columns)
  columns,  ///< columns sharing a row get different colors (Jacobian compression)
};

/// Partial distance-2 coloring of the rows (or columns) of a num_rows x num_cols pattern.
///
/// [in] a: any well-formed pattern (need not be square or symmetric); duplicate entries are fine.
/// [in] side: rows: rows i != k with a common column get different colors; columns: the same
///      for columns with a common row.
/// Builds the transpose internally (one sort of nnz keys). Colors in [0, num_colors).
/// Throws InvalidArgument for a malformed pattern.
template <class Device>
Coloring<Device> color_bipartite(const Graph<Device>& a, BipartiteSide side = BipartiteSide::rows) {
  impl::require_valid_graph(a, "kelp::kernels::color_bipartite", false);
  const Graph<Device> at = transpose(a);
  const Graph<Device>& rows = side == BipartiteSide::rows ? a : at;
  const Graph<Device>& cols = side == BipartiteSide::rows ? at : a;
  impl::TwoHop<Device> hops{rows.row_map(), rows.entries(), cols.row_map(), cols.entries(), false};
  Coloring<Device> result;
  result.colors = Kokkos::View<Ordinal*, Device>("kelp::kernels::color_bipartite::colors", rows.num_rows());
  result.rounds = impl::color_two_hop_speculative(hops, rows.num_rows(), result.colors);
  result.num_colors = impl::finish_coloring(result.colors);
  return result;
}

#define KELP_GRAPH_COLOR_DISTANCE2_ETI(PREFIX, DEVICE)                                      \
  PREFIX template Coloring<DEVICE> color_distance2<DEVICE>(const Graph<DEVICE>&);         \
  PREFIX template Coloring<DEVICE> color_bipartite<DEVICE>(const Graph<DEVICE>&, BipartiteSide);

KELP_GRAPH_COLOR_DISTANCE2_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels

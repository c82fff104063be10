#pragma once
/// Distance-2 coloring of a graph and bipartite (partial distance-2) coloring of the rows or
/// columns of a rectangular pattern.

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/color_d2_net_based.hpp"
#include "kelp/kernels/graph/impl/color_d2_speculative.hpp"
#include "kelp/kernels/graph/impl/finish_coloring.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"
#include "kelp/kernels/graph/symmetrize.hpp"

namespace kelp::kernels {

/// Distance-2 (and bipartite) coloring algorithms.
enum class Color2Algorithm {
  automatic,     ///< vertex_based
  vertex_based,  ///< speculation over the two-hop neighbourhoods (VB_BIT; fewest colors and
                 ///< rounds on meshes; depends on timing)
  net_based,     ///< colors gathered through nets in one-hop passes (NB_BIT; for large degrees;
                 ///< the same colors on any thread count and device)
};

/// Parameters of color_distance2 and color_bipartite.
struct Color2Params {
  Color2Algorithm algorithm = Color2Algorithm::automatic;
};

namespace impl {
/// Runs the chosen two-hop coloring of the rows of hops' A (num_nets: rows of its A^T).
template <class Device>
int color_two_hop(const TwoHop<Device>& hops, Ordinal num_rows, Ordinal num_nets,
                  Kokkos::View<Ordinal*, Device> colors, const Color2Params& params) {
  return params.algorithm == Color2Algorithm::net_based
             ? color_two_hop_net_based(hops, num_rows, num_nets, colors)
             : color_two_hop_speculative(hops, num_rows, colors);
}
}  // namespace impl

/// Colors the vertices of g so that vertices at distance 1 or 2 get different colors.
///
/// [in] g: square, structurally symmetric graph (symmetrize() a nonsymmetric one); self loops
///      are ignored.
/// [in] params: the algorithm: vertex_based (speculative; the result may differ between thread
///      counts; O(sum of squared degrees) per round; on one thread the sequential greedy
///      coloring in natural order, computed net-based in O(nnz)) or net_based (reproducible; O(nnz) per
///      round, more rounds; see impl/color_d2_net_based.hpp).
/// Colors in [0, num_colors).
/// Throws DimensionMismatch for a non-square graph, InvalidArgument for a malformed one.
template <class Device>
Coloring<Device> color_distance2(const Graph<Device>& g, const Color2Params& params = {}) {
  impl::require_valid_graph(g, "kelp::kernels::color_distance2", true);
  impl::TwoHop<Device> hops{g.row_map(), g.entries(), g.row_map(), g.entries(), true};
  Coloring<Device> result;
  result.colors = Kokkos::View<Ordinal*, Device>("kelp::kernels::color_distance2::colors", g.num_rows());
  result.rounds = impl::color_two_hop(hops, g.num_rows(), g.num_rows(), result.colors, params);
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
/// [in] params: the algorithm, as for color_distance2 (vertex_based or net_based).
/// Builds the transpose internally (one sort of nnz keys). Colors in [0, num_colors).
/// Throws InvalidArgument for a malformed pattern.
template <class Device>
Coloring<Device> color_bipartite(const Graph<Device>& a, BipartiteSide side = BipartiteSide::rows,
                                 const Color2Params& params = {}) {
  impl::require_valid_graph(a, "kelp::kernels::color_bipartite", false);
  const Graph<Device> at = transpose(a);
  const Graph<Device>& rows = side == BipartiteSide::rows ? a : at;
  const Graph<Device>& cols = side == BipartiteSide::rows ? at : a;
  impl::TwoHop<Device> hops{rows.row_map(), rows.entries(), cols.row_map(), cols.entries(), false};
  Coloring<Device> result;
  result.colors = Kokkos::View<Ordinal*, Device>("kelp::kernels::color_bipartite::colors", rows.num_rows());
  result.rounds = impl::color_two_hop(hops, rows.num_rows(), cols.num_rows(), result.colors, params);
  result.num_colors = impl::finish_coloring(result.colors);
  return result;
}

#define KELP_GRAPH_COLOR_DISTANCE2_ETI(PREFIX, DEVICE)                                      \
  PREFIX template Coloring<DEVICE> color_distance2<DEVICE>(const Graph<DEVICE>&, const Color2Params&); \
  PREFIX template Coloring<DEVICE> color_bipartite<DEVICE>(const Graph<DEVICE>&, BipartiteSide,      \
                                                           const Color2Params&);

KELP_GRAPH_COLOR_DISTANCE2_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels

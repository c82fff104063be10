#pragma once
/// Distance-1 graph coloring: neighbours get different colors.

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/color_d1_deterministic.hpp"
#include "kelp/kernels/graph/impl/color_d1_edge_based.hpp"
#include "kelp/kernels/graph/impl/color_d1_speculative.hpp"
#include "kelp/kernels/graph/impl/finish_coloring.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels {

/// Distance-1 coloring algorithms.
enum class Color1Algorithm {
  automatic,      ///< speculative
  speculative,    ///< vertex-based speculation + conflict resolution, forbidden colors as a bit
                  ///< array, 64 colors per batch (VB_BIT; fast; depends on timing)
  deterministic,  ///< priority rounds: the same colors on any thread count and device
  edge_based,     ///< a thread per edge (EB): for very uneven degrees (hubs); also reproducible
};

/// Parameters of color_distance1.
struct Color1Params {
  /// automatic = speculative: the fewest passes; deterministic costs more rounds and colors.
  Color1Algorithm algorithm = Color1Algorithm::automatic;
};

/// Colors the vertices of g so that colors(i) != colors(j) for every edge (i, j), i != j.
///
/// [in] g: square, structurally symmetric graph (symmetrize() a nonsymmetric one: the
///      speculative algorithm only sees stored edges); self loops are ignored.
/// [in] params: the algorithm (speculative; deterministic or edge_based for reproducible colors;
///      edge_based for graphs with vertices of huge degree, see impl/color_d1_edge_based.hpp).
/// Returns colors in [0, num_colors) and the number of rounds. The speculative coloring on one
/// thread equals the sequential greedy coloring in natural order.
/// Throws DimensionMismatch for a non-square graph, InvalidArgument for a malformed one.
/// Reference: Deveci et al., IPDPS 2016 (speculative, edge-based); Jones and Plassmann 1993
/// (deterministic).
template <class Device>
Coloring<Device> color_distance1(const Graph<Device>& g, const Color1Params& params = {}) {
  impl::require_valid_graph(g, "kelp::kernels::color_distance1", true);
  Coloring<Device> result;
  result.colors = Kokkos::View<Ordinal*, Device>("kelp::kernels::color_distance1::colors", g.num_rows());
  switch (params.algorithm) {
    case Color1Algorithm::deterministic:
      result.rounds = impl::color_d1_deterministic(g, result.colors);
      break;
    case Color1Algorithm::edge_based:
      result.rounds = impl::color_d1_edge_based(g, result.colors);
      break;
    default:
      result.rounds = impl::color_d1_speculative(g, result.colors);
      break;
  }
  result.num_colors = impl::finish_coloring(result.colors);
  return result;
}

#define KELP_GRAPH_COLOR_DISTANCE1_ETI(PREFIX, DEVICE) \
  PREFIX template Coloring<DEVICE> color_distance1<DEVICE>(const Graph<DEVICE>&, const Color1Params&);

KELP_GRAPH_COLOR_DISTANCE1_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels

// The graph kernels for Kelp's default device (and the strength graph for each standard
// scalar): the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/graph.hpp"

namespace kelp::kernels {
KELP_GRAPH_SYMMETRIZE_ETI(KELP_ETI_DEFINE, DefaultDevice)
KELP_GRAPH_COLOR_DISTANCE1_ETI(KELP_ETI_DEFINE, DefaultDevice)
KELP_GRAPH_COLOR_DISTANCE2_ETI(KELP_ETI_DEFINE, DefaultDevice)
KELP_GRAPH_MIS2_ETI(KELP_ETI_DEFINE, DefaultDevice)
KELP_GRAPH_MIS2_AGGREGATE_ETI(KELP_ETI_DEFINE, DefaultDevice)
KELP_GRAPH_CHECKERS_ETI(KELP_ETI_DEFINE, DefaultDevice)
KELP_ETI_FOR_EACH_SCALAR(KELP_GRAPH_STRENGTH_ETI, KELP_ETI_DEFINE)
}  // namespace kelp::kernels

#pragma once
/// Graph kernels: symmetrize/transpose, distance-1, distance-2 and bipartite coloring, MIS-2,
/// MIS-2 aggregation and the coarse graph, the strength-of-connection graph, and the checkers.

#include "kelp/kernels/graph/checkers.hpp"
#include "kelp/kernels/graph/color_distance1.hpp"
#include "kelp/kernels/graph/color_distance2.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/mis2.hpp"
#include "kelp/kernels/graph/mis2_aggregate.hpp"
#include "kelp/kernels/graph/strength_graph.hpp"
#include "kelp/kernels/graph/symmetrize.hpp"

// The CG variants (single-reduction, flexible) for float: the one compiled copy (see
// kernels/core/eti.hpp).
#include "kelp/solvers/cg/cg_single_reduction.hpp"
#include "kelp/solvers/cg/flexible_cg.hpp"

namespace kelp::solvers {
KELP_CG_SINGLE_REDUCTION_ETI(KELP_ETI_DEFINE, float)
KELP_FLEXIBLE_CG_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::solvers

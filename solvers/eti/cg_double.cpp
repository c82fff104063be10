// Conjugate gradients for double: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/solvers/cg/cg.hpp"

namespace kelp::solvers {
KELP_CG_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::solvers

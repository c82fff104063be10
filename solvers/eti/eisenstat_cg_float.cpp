// CG with Eisenstat's trick (symmetric multicolor Gauss-Seidel) for float: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/solvers/cg/eisenstat_cg.hpp"

namespace kelp::solvers {
KELP_EISENSTAT_CG_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::solvers

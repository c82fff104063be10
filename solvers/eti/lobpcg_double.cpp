// LOBPCG for double: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/solvers/lobpcg/lobpcg.hpp"

namespace kelp::solvers {
KELP_LOBPCG_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::solvers

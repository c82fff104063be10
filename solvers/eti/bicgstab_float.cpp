// BiCGStab for float: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/solvers/bicgstab/bicgstab.hpp"

namespace kelp::solvers {
KELP_BICGSTAB_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::solvers

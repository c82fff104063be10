// Chebyshev polynomial preconditioner for float: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/chebyshev/chebyshev.hpp"

namespace kelp::precond {
KELP_CHEBYSHEV_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::precond

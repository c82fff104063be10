// OverlapSubdomain and AdditiveSchwarz for double: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/distributed/additive_schwarz.hpp"

namespace kelp::dist {
KELP_DIST_ADDITIVE_SCHWARZ_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::dist

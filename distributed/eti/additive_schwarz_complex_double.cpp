// OverlapSubdomain and AdditiveSchwarz for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/distributed/additive_schwarz.hpp"

namespace kelp::dist {
KELP_DIST_ADDITIVE_SCHWARZ_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::dist

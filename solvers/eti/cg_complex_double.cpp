// Conjugate gradients for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/solvers/cg/cg.hpp"

namespace kelp::solvers {
KELP_CG_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::solvers

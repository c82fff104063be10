// BiCGStab for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/solvers/bicgstab/bicgstab.hpp"

namespace kelp::solvers {
KELP_BICGSTAB_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::solvers

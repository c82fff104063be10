// GMRES(m) / FGMRES(m) for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/solvers/gmres/gmres.hpp"

namespace kelp::solvers {
KELP_GMRES_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::solvers

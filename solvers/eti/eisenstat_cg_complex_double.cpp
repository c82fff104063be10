// CG with Eisenstat's trick (symmetric multicolor Gauss-Seidel) for Kokkos::complex<double>: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/solvers/cg/eisenstat_cg.hpp"

namespace kelp::solvers {
KELP_EISENSTAT_CG_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::solvers

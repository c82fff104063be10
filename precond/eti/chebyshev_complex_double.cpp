// Chebyshev polynomial preconditioner for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/chebyshev/chebyshev.hpp"

namespace kelp::precond {
KELP_CHEBYSHEV_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::precond

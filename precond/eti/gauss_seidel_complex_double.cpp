// Gauss-Seidel (multicolor, cluster, two-stage) for CrsMatrix<Kokkos::complex<double>>: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"

namespace kelp::precond {
KELP_GAUSS_SEIDEL_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::precond

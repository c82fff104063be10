// Block Jacobi preconditioner for CrsMatrix<Kokkos::complex<double>>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/block_jacobi/block_jacobi.hpp"

namespace kelp::precond {
KELP_BLOCK_JACOBI_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::precond

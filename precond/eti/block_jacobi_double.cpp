// Block Jacobi preconditioner for CrsMatrix<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/block_jacobi/block_jacobi.hpp"

namespace kelp::precond {
KELP_BLOCK_JACOBI_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::precond

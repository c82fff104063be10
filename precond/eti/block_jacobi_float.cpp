// Block Jacobi preconditioner for CrsMatrix<float>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/block_jacobi/block_jacobi.hpp"

namespace kelp::precond {
KELP_BLOCK_JACOBI_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::precond

// Jacobi preconditioner for CrsMatrix<float>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/jacobi/jacobi.hpp"

namespace kelp::precond {
KELP_JACOBI_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::precond

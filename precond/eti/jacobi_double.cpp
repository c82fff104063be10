// Jacobi preconditioner for CrsMatrix<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/precond/jacobi/jacobi.hpp"

namespace kelp::precond {
KELP_JACOBI_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::precond

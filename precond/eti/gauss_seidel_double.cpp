// Gauss-Seidel (multicolor, cluster, two-stage) for CrsMatrix<double>: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"

namespace kelp::precond {
KELP_GAUSS_SEIDEL_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::precond

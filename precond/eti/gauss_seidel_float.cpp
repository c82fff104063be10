// Gauss-Seidel (multicolor, cluster, two-stage) for CrsMatrix<float>: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"

namespace kelp::precond {
KELP_GAUSS_SEIDEL_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::precond

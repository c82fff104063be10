// Batched dense BLAS and LU for float: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/batched/batched_lu.hpp"

namespace kelp::kernels::batched {
KELP_BATCHED_BLAS_ETI(KELP_ETI_DEFINE, float)
KELP_BATCHED_LU_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::kernels::batched

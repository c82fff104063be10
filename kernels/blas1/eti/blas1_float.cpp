// BLAS-1 kernels for float: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/blas1.hpp"

namespace kelp::kernels {
KELP_AXPBY_ETI(KELP_ETI_DEFINE, float)
KELP_DOT_ETI(KELP_ETI_DEFINE, float)
KELP_NORMS_ETI(KELP_ETI_DEFINE, float)
KELP_GRAM_ETI(KELP_ETI_DEFINE, float)
KELP_AXPBY_COLUMNS_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::kernels

// BLAS-1 kernels for double: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/blas1.hpp"

namespace kelp::kernels {
KELP_AXPBY_ETI(KELP_ETI_DEFINE, double)
KELP_DOT_ETI(KELP_ETI_DEFINE, double)
KELP_NORMS_ETI(KELP_ETI_DEFINE, double)
KELP_GRAM_ETI(KELP_ETI_DEFINE, double)
KELP_AXPBY_COLUMNS_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::kernels

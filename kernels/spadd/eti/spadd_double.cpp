// SpAdd for CrsMatrix<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/spadd/spadd.hpp"

namespace kelp::kernels {
KELP_SPADD_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::kernels

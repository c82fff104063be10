// DistCrsMatrix and DistOperator for double: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/distributed/dist_crs_matrix.hpp"

namespace kelp::dist {
KELP_DIST_CRS_MATRIX_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::dist

// DistCrsMatrix and DistOperator for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/distributed/dist_crs_matrix.hpp"

namespace kelp::dist {
KELP_DIST_CRS_MATRIX_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::dist

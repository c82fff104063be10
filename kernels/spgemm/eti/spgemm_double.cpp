// SpGEMM (plain, Jacobi-fused, triple product) for CrsMatrix<double>: the one compiled copy (see
// kernels/core/eti.hpp).
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "kelp/kernels/spgemm/triple_product.hpp"

namespace kelp::kernels {
KELP_SPGEMM_ETI(KELP_ETI_DEFINE, double)
KELP_TRIPLE_PRODUCT_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::kernels

// SpGEMM (plain, Jacobi-fused, triple product) for CrsMatrix<float>: the one compiled copy (see
// kernels/core/eti.hpp).
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "kelp/kernels/spgemm/triple_product.hpp"

namespace kelp::kernels {
KELP_SPGEMM_ETI(KELP_ETI_DEFINE, float)
KELP_TRIPLE_PRODUCT_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::kernels

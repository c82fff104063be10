// SpGEMM (plain, Jacobi-fused, triple product) for CrsMatrix<Kokkos::complex<double>>: the one compiled copy (see
// kernels/core/eti.hpp).
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "kelp/kernels/spgemm/triple_product.hpp"

namespace kelp::kernels {
KELP_SPGEMM_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_TRIPLE_PRODUCT_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::kernels

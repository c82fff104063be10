// SpAdd for CrsMatrix<Kokkos::complex<double>>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/spadd/spadd.hpp"

namespace kelp::kernels {
KELP_SPADD_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::kernels

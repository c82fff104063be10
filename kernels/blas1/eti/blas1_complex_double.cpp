// BLAS-1 kernels for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/blas1.hpp"

namespace kelp::kernels {
KELP_AXPBY_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_DOT_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_NORMS_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_GRAM_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_AXPBY_COLUMNS_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::kernels

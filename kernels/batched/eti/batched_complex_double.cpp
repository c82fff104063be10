// Batched dense BLAS and LU for Kokkos::complex<double>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/batched/batched_lu.hpp"

namespace kelp::kernels::batched {
KELP_BATCHED_BLAS_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_BATCHED_LU_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::kernels::batched

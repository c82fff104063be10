// sort_rows and transpose for CrsMatrix<Kokkos::complex<double>>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/sparse/sort_rows.hpp"
#include "kelp/kernels/sparse/transpose.hpp"

namespace kelp::kernels {
KELP_SORT_ROWS_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_TRANSPOSE_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::kernels

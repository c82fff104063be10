// KPM (spectral bounds, start vectors, moments, DOS) for CrsMatrix<Kokkos::complex<double>>: the one compiled copy.
#include "kelp/solvers/kpm/impl/kpm_impl.hpp"

namespace kelp::solvers {
KELP_KPM_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::solvers

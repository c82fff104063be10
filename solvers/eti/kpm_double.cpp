// KPM (spectral bounds, start vectors, moments, DOS) for CrsMatrix<double>: the one compiled copy.
#include "kelp/solvers/kpm/impl/kpm_impl.hpp"

namespace kelp::solvers {
KELP_KPM_ETI(KELP_ETI_DEFINE, double)
}  // namespace kelp::solvers

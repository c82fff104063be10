// The CG variants (single-reduction, flexible) for Kokkos::complex<double>: the one compiled copy (see
// kernels/core/eti.hpp).
#include "kelp/solvers/cg/cg_single_reduction.hpp"
#include "kelp/solvers/cg/flexible_cg.hpp"

namespace kelp::solvers {
KELP_CG_SINGLE_REDUCTION_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_FLEXIBLE_CG_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::solvers

// SELL-C-sigma conversion, SpMV/SpMMV and SellOperator for Kokkos::complex<double>: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/kernels/sell/sell_operator.hpp"
#include "kelp/kernels/sell/sell_spmv.hpp"
#include "kelp/kernels/sell/to_sell.hpp"

namespace kelp::kernels {
KELP_TO_SELL_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
KELP_SELL_SPMV_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp::kernels

namespace kelp {
KELP_SELL_OPERATOR_ETI(KELP_ETI_DEFINE, Kokkos::complex<double>)
}  // namespace kelp

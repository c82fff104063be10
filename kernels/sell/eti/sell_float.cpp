// SELL-C-sigma conversion, SpMV/SpMMV and SellOperator for float: the one compiled copy
// (see kernels/core/eti.hpp).
#include "kelp/kernels/sell/sell_operator.hpp"
#include "kelp/kernels/sell/sell_spmv.hpp"
#include "kelp/kernels/sell/to_sell.hpp"

namespace kelp::kernels {
KELP_TO_SELL_ETI(KELP_ETI_DEFINE, float)
KELP_SELL_SPMV_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::kernels

namespace kelp {
KELP_SELL_OPERATOR_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp

// SpMV/SpMMV and MatrixOperator for CrsMatrix<float>: the one compiled copy (see kernels/core/eti.hpp).
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace kelp::kernels {
KELP_SPMV_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp::kernels

namespace kelp {
KELP_MATRIX_OPERATOR_ETI(KELP_ETI_DEFINE, float)
}  // namespace kelp

#pragma once
// cuSPARSE as a benchmark peer (CUDA builds only, KELP_HAVE_CUSPARSE; kelp-bench-spmv and
// kelp-bench-kpm): y = alpha*A*x + beta*y with the generic API, CSR, the default algorithms
// (CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMM_ALG_DEFAULT unless another SpMM algorithm is named),
// for vectors and for dense blocks in column-major (LayoutLeft) and row-major (LayoutRight) order.
// Never part of the library: it only times the same product on the same device arrays (values
// and column indices shared with Kelp's matrix; cuSPARSE gets its own copy of the row offsets as
// 32-bit integers when nnz < 2^31, the index type it documents for both arrays, so it reads 4
// bytes per row less than Kelp's 64-bit offsets).

#ifdef KELP_HAVE_CUSPARSE
#include <cuda_runtime.h>
#include <cusparse.h>

#include <Kokkos_Core.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kelp::bench {

inline void cusparse_check(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cuSPARSE peer: ") + what + ": " +
                             cusparseGetErrorString(status));
  }
}

template <class Scalar>
cudaDataType cusparse_type() {
  if constexpr (std::is_same<Scalar, double>::value) {
    return CUDA_R_64F;
  } else if constexpr (std::is_same<Scalar, float>::value) {
    return CUDA_R_32F;
  } else {
    static_assert(std::is_same<Scalar, Kokkos::complex<double>>::value,
                  "cuSPARSE peer: double, float or complex<double>");
    return CUDA_C_64F;
  }
}

/// A's row offsets as 32-bit integers (free function: CUDA lambdas cannot live in constructors).
template <class Matrix>
Kokkos::View<int*, typename Matrix::device_type> int32_offsets(const Matrix& A) {
  Kokkos::View<int*, typename Matrix::device_type> offsets("cusparse_row_offsets", A.num_rows() + 1);
  auto row_map = A.row_map();
  Kokkos::parallel_for(
      "kelp::bench::cusparse_offsets",
      Kokkos::RangePolicy<typename Matrix::execution_space>(0, A.num_rows() + 1),
      KOKKOS_LAMBDA(const int i) { offsets(i) = static_cast<int>(row_map(i)); });
  Kokkos::fence();
  return offsets;
}

/// One CSR matrix as cuSPARSE sees it and its product with one pair of vectors or blocks (x, y):
/// the descriptors and the work buffer are made once, so the timed call is cusparseSpMV/SpMM only.
template <class Matrix, class XView, class YView>
class CusparsePeer {
 public:
  using Scalar = typename Matrix::scalar_type;

  CusparsePeer(const Matrix& A, const XView& x, const YView& y, Scalar alpha, Scalar beta,
               cusparseSpMMAlg_t spmm_algorithm = CUSPARSE_SPMM_ALG_DEFAULT)
      : A_(A), x_(x), y_(y), alpha_(alpha), beta_(beta), spmm_algorithm_(spmm_algorithm),
        offsets_(int32_offsets(A)) {
    const cudaDataType type = cusparse_type<Scalar>();
    cusparse_check(cusparseCreate(&handle_), "cusparseCreate");
    cusparse_check(cusparseCreateCsr(&matrix_, A.num_rows(), A.num_cols(), A.nnz(), offsets_.data(),
                                     const_cast<int*>(A.entries().data()),
                                     const_cast<Scalar*>(A.values().data()), CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
                   "cusparseCreateCsr");
    std::size_t size = 0;
    if constexpr (XView::rank == 1) {
      cusparse_check(cusparseCreateDnVec(&vx_, x.extent(0), const_cast<Scalar*>(x.data()), type),
                     "cusparseCreateDnVec");
      cusparse_check(cusparseCreateDnVec(&vy_, y.extent(0), y.data(), type), "cusparseCreateDnVec");
      cusparse_check(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_,
                                             matrix_, vx_, &beta_, vy_, type,
                                             CUSPARSE_SPMV_ALG_DEFAULT, &size),
                     "cusparseSpMV_bufferSize");
    } else {
      constexpr bool row_major = std::is_same<typename XView::array_layout, Kokkos::LayoutRight>::value;
      const cusparseOrder_t order = row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
      const int64_t ldx = row_major ? x.stride(0) : x.stride(1);
      const int64_t ldy = row_major ? y.stride(0) : y.stride(1);
      cusparse_check(cusparseCreateDnMat(&mx_, x.extent(0), x.extent(1), ldx,
                                         const_cast<Scalar*>(x.data()), type, order),
                     "cusparseCreateDnMat");
      cusparse_check(cusparseCreateDnMat(&my_, y.extent(0), y.extent(1), ldy, y.data(), type, order),
                     "cusparseCreateDnMat");
      cusparse_check(cusparseSpMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                             CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, mx_,
                                             &beta_, my_, type, spmm_algorithm_, &size),
                     "cusparseSpMM_bufferSize");
    }
    if (size > 0 && cudaMalloc(&buffer_, size) != cudaSuccess) {
      throw std::runtime_error("cuSPARSE peer: cudaMalloc of its work buffer failed");
    }
  }
  CusparsePeer(const CusparsePeer&) = delete;
  CusparsePeer& operator=(const CusparsePeer&) = delete;
  ~CusparsePeer() {
    if (buffer_) cudaFree(buffer_);
    if (vx_) cusparseDestroyDnVec(vx_);
    if (vy_) cusparseDestroyDnVec(vy_);
    if (mx_) cusparseDestroyDnMat(mx_);
    if (my_) cusparseDestroyDnMat(my_);
    cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }

  /// y = alpha*A*x + beta*y on the x and y given at construction.
  void apply() {
    const cudaDataType type = cusparse_type<Scalar>();
    if constexpr (XView::rank == 1) {
      cusparse_check(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, vx_,
                                  &beta_, vy_, type, CUSPARSE_SPMV_ALG_DEFAULT, buffer_),
                     "cusparseSpMV");
    } else {
      cusparse_check(cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, mx_, &beta_,
                                  my_, type, spmm_algorithm_, buffer_),
                     "cusparseSpMM");
    }
  }

 private:
  Matrix A_;  // keeps the shared values and column indices alive
  XView x_;
  YView y_;
  Scalar alpha_, beta_;
  cusparseSpMMAlg_t spmm_algorithm_;
  Kokkos::View<int*, typename Matrix::device_type> offsets_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;
  cusparseDnVecDescr_t vx_ = nullptr, vy_ = nullptr;
  cusparseDnMatDescr_t mx_ = nullptr, my_ = nullptr;
  void* buffer_ = nullptr;
};

}  // namespace kelp::bench
#endif

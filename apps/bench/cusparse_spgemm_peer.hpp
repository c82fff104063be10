#pragma once
// cuSPARSE SpGEMM as a benchmark peer of kelp-bench-spgemm (CUDA builds only, KELP_HAVE_CUSPARSE):
// C = A·B with the CUDA 12 generic API, CSR, 32-bit indices, CUSPARSE_SPGEMM_DEFAULT, in two
// forms:
//  - one-shot (cusparseSpGEMM_workEstimation / _compute / _copy): pattern and values together,
//    the counterpart of Kelp's symbolic + numeric with a fresh handle ("total");
//  - reuse (cusparseSpGEMMreuse_workEstimation / _nnz / _copy once, then
//    cusparseSpGEMMreuse_compute per value change): the counterpart of Kelp's numeric reuse.
// Never part of the library. A and B share Kelp's column indices and values; cuSPARSE gets its
// own 32-bit row offsets (kelp::bench::int32_offsets). Every status is checked; a failure throws
// naming the call.

#ifdef KELP_HAVE_CUSPARSE
#include <cuda_runtime.h>
#include <cusparse.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kelp/apps/bench/cusparse_peer.hpp"

namespace kelp::bench {

inline void spgemm_cusparse_check(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("kelp-bench-spgemm: cuSPARSE SpGEMM peer: ") + what + ": " +
                             cusparseGetErrorString(status));
  }
}

inline void spgemm_cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("kelp-bench-spgemm: cuSPARSE SpGEMM peer: ") + what + ": " +
                             cudaGetErrorString(status));
  }
}

/// A device buffer of `bytes` bytes (nullptr for 0), freed on destruction.
class CudaBuffer {
 public:
  CudaBuffer() = default;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer() { reset(); }
  void* get() const { return data_; }
  void allocate(std::size_t bytes, const char* what) {
    reset();
    if (bytes > 0) spgemm_cuda_check(cudaMalloc(&data_, bytes), what);
  }
  void reset() {
    if (data_) cudaFree(data_);
    data_ = nullptr;
  }

 private:
  void* data_ = nullptr;
};

/// C = A·B through cuSPARSE's SpGEMM for one pair (A, B) of Kelp CRS matrices on the device.
template <class Matrix>
class CusparseSpgemmPeer {
 public:
  using Scalar = typename Matrix::scalar_type;
  using IntView = Kokkos::View<int*, typename Matrix::device_type>;

  CusparseSpgemmPeer(const Matrix& A, const Matrix& B) : A_(A), B_(B) {
    if (A.nnz() >= (std::int64_t(1) << 31) || B.nnz() >= (std::int64_t(1) << 31)) {
      throw std::runtime_error("kelp-bench-spgemm: cuSPARSE SpGEMM peer: nnz of A or B exceeds 32-bit indices");
    }
    a_offsets_ = int32_offsets(A);
    b_offsets_ = int32_offsets(B);
    spgemm_cusparse_check(cusparseCreate(&handle_), "cusparseCreate");
    matA_ = make_csr(A, a_offsets_, "cusparseCreateCsr(A)");
    matB_ = make_csr(B, b_offsets_, "cusparseCreateCsr(B)");
  }
  CusparseSpgemmPeer(const CusparseSpgemmPeer&) = delete;
  CusparseSpgemmPeer& operator=(const CusparseSpgemmPeer&) = delete;
  ~CusparseSpgemmPeer() {
    release_reuse();
    if (matB_) cusparseDestroySpMat(matB_);
    if (matA_) cusparseDestroySpMat(matA_);
    if (handle_) cusparseDestroy(handle_);
  }

  /// One-shot product (pattern and values), all temporaries freed before returning; returns nnz(C).
  std::int64_t multiply_once() {
    const cudaDataType type = cusparse_type<Scalar>();
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const Scalar alpha(1), beta(0);
    cusparseSpMatDescr_t matC = nullptr;
    cusparseSpGEMMDescr_t descr = nullptr;
    CudaBuffer buffer1, buffer2, offsets, columns, values;
    try {
      spgemm_cusparse_check(cusparseCreateCsr(&matC, A_.num_rows(), B_.num_cols(), 0, nullptr, nullptr, nullptr,
                                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                              type),
                            "cusparseCreateCsr(C)");
      spgemm_cusparse_check(cusparseSpGEMM_createDescr(&descr), "cusparseSpGEMM_createDescr");
      std::size_t size1 = 0, size2 = 0;
      spgemm_cusparse_check(cusparseSpGEMM_workEstimation(handle_, op, op, &alpha, matA_, matB_, &beta, matC, type,
                                                          CUSPARSE_SPGEMM_DEFAULT, descr, &size1, nullptr),
                            "cusparseSpGEMM_workEstimation (size)");
      buffer1.allocate(size1, "cudaMalloc (SpGEMM buffer 1)");
      spgemm_cusparse_check(cusparseSpGEMM_workEstimation(handle_, op, op, &alpha, matA_, matB_, &beta, matC, type,
                                                          CUSPARSE_SPGEMM_DEFAULT, descr, &size1, buffer1.get()),
                            "cusparseSpGEMM_workEstimation");
      spgemm_cusparse_check(cusparseSpGEMM_compute(handle_, op, op, &alpha, matA_, matB_, &beta, matC, type,
                                                   CUSPARSE_SPGEMM_DEFAULT, descr, &size2, nullptr),
                            "cusparseSpGEMM_compute (size)");
      buffer2.allocate(size2, "cudaMalloc (SpGEMM buffer 2)");
      spgemm_cusparse_check(cusparseSpGEMM_compute(handle_, op, op, &alpha, matA_, matB_, &beta, matC, type,
                                                   CUSPARSE_SPGEMM_DEFAULT, descr, &size2, buffer2.get()),
                            "cusparseSpGEMM_compute");
      std::int64_t rows = 0, cols = 0, nnz = 0;
      spgemm_cusparse_check(cusparseSpMatGetSize(matC, &rows, &cols, &nnz), "cusparseSpMatGetSize(C)");
      offsets.allocate(static_cast<std::size_t>(rows + 1) * sizeof(int), "cudaMalloc (C offsets)");
      columns.allocate(static_cast<std::size_t>(nnz) * sizeof(int), "cudaMalloc (C columns)");
      values.allocate(static_cast<std::size_t>(nnz) * sizeof(Scalar), "cudaMalloc (C values)");
      spgemm_cusparse_check(cusparseCsrSetPointers(matC, offsets.get(), columns.get(), values.get()),
                            "cusparseCsrSetPointers(C)");
      spgemm_cusparse_check(cusparseSpGEMM_copy(handle_, op, op, &alpha, matA_, matB_, &beta, matC, type,
                                                CUSPARSE_SPGEMM_DEFAULT, descr),
                            "cusparseSpGEMM_copy");
      spgemm_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (SpGEMM)");
      cusparseSpGEMM_destroyDescr(descr);
      cusparseDestroySpMat(matC);
      return nnz;
    } catch (...) {
      if (descr) cusparseSpGEMM_destroyDescr(descr);
      if (matC) cusparseDestroySpMat(matC);
      throw;
    }
  }

  /// Reuse form, first part: C's pattern (workEstimation, nnz, copy), kept for reuse_compute.
  /// Returns nnz(C).
  std::int64_t reuse_symbolic() {
    release_reuse();
    const cudaDataType type = cusparse_type<Scalar>();
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    c_offsets_.allocate(static_cast<std::size_t>(A_.num_rows() + 1) * sizeof(int), "cudaMalloc (C offsets)");
    spgemm_cusparse_check(cusparseCreateCsr(&matC_, A_.num_rows(), B_.num_cols(), 0, c_offsets_.get(), nullptr,
                                            nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_BASE_ZERO, type),
                          "cusparseCreateCsr(C, reuse)");
    spgemm_cusparse_check(cusparseSpGEMM_createDescr(&descr_), "cusparseSpGEMM_createDescr (reuse)");
    CudaBuffer buffer1, buffer2;
    std::size_t size1 = 0, size2 = 0, size3 = 0, size4 = 0, size5 = 0;
    spgemm_cusparse_check(cusparseSpGEMMreuse_workEstimation(handle_, op, op, matA_, matB_, matC_,
                                                             CUSPARSE_SPGEMM_DEFAULT, descr_, &size1, nullptr),
                          "cusparseSpGEMMreuse_workEstimation (size)");
    buffer1.allocate(size1, "cudaMalloc (SpGEMM reuse buffer 1)");
    spgemm_cusparse_check(cusparseSpGEMMreuse_workEstimation(handle_, op, op, matA_, matB_, matC_,
                                                             CUSPARSE_SPGEMM_DEFAULT, descr_, &size1, buffer1.get()),
                          "cusparseSpGEMMreuse_workEstimation");
    spgemm_cusparse_check(cusparseSpGEMMreuse_nnz(handle_, op, op, matA_, matB_, matC_, CUSPARSE_SPGEMM_DEFAULT,
                                                  descr_, &size2, nullptr, &size3, nullptr, &size4, nullptr),
                          "cusparseSpGEMMreuse_nnz (sizes)");
    buffer2.allocate(size2, "cudaMalloc (SpGEMM reuse buffer 2)");
    buffer3_.allocate(size3, "cudaMalloc (SpGEMM reuse buffer 3)");
    buffer4_.allocate(size4, "cudaMalloc (SpGEMM reuse buffer 4)");
    spgemm_cusparse_check(cusparseSpGEMMreuse_nnz(handle_, op, op, matA_, matB_, matC_, CUSPARSE_SPGEMM_DEFAULT,
                                                  descr_, &size2, buffer2.get(), &size3, buffer3_.get(), &size4,
                                                  buffer4_.get()),
                          "cusparseSpGEMMreuse_nnz");
    buffer1.reset();
    buffer2.reset();
    std::int64_t rows = 0, cols = 0, nnz = 0;
    spgemm_cusparse_check(cusparseSpMatGetSize(matC_, &rows, &cols, &nnz), "cusparseSpMatGetSize(C, reuse)");
    c_columns_.allocate(static_cast<std::size_t>(nnz) * sizeof(int), "cudaMalloc (C columns, reuse)");
    c_values_.allocate(static_cast<std::size_t>(nnz) * sizeof(Scalar), "cudaMalloc (C values, reuse)");
    spgemm_cusparse_check(cusparseCsrSetPointers(matC_, c_offsets_.get(), c_columns_.get(), c_values_.get()),
                          "cusparseCsrSetPointers(C, reuse)");
    spgemm_cusparse_check(cusparseSpGEMMreuse_copy(handle_, op, op, matA_, matB_, matC_, CUSPARSE_SPGEMM_DEFAULT,
                                                   descr_, &size5, nullptr),
                          "cusparseSpGEMMreuse_copy (size)");
    buffer5_.allocate(size5, "cudaMalloc (SpGEMM reuse buffer 5)");
    spgemm_cusparse_check(cusparseSpGEMMreuse_copy(handle_, op, op, matA_, matB_, matC_, CUSPARSE_SPGEMM_DEFAULT,
                                                   descr_, &size5, buffer5_.get()),
                          "cusparseSpGEMMreuse_copy");
    buffer3_.reset();
    spgemm_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (SpGEMM reuse symbolic)");
    return nnz;
  }

  /// Reuse form, per value change: C's values from the current values of A and B.
  void reuse_compute() {
    if (!descr_) throw std::runtime_error("kelp-bench-spgemm: cuSPARSE SpGEMM peer: reuse_compute before reuse_symbolic");
    const Scalar alpha(1), beta(0);
    spgemm_cusparse_check(cusparseSpGEMMreuse_compute(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                      CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA_, matB_, &beta,
                                                      matC_, cusparse_type<Scalar>(), CUSPARSE_SPGEMM_DEFAULT,
                                                      descr_),
                          "cusparseSpGEMMreuse_compute");
    spgemm_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (SpGEMM reuse compute)");
  }

 private:
  cusparseSpMatDescr_t make_csr(const Matrix& M, const IntView& offsets, const char* what) {
    cusparseSpMatDescr_t descr = nullptr;
    spgemm_cusparse_check(cusparseCreateCsr(&descr, M.num_rows(), M.num_cols(), M.nnz(), offsets.data(),
                                            const_cast<int*>(M.entries().data()),
                                            const_cast<Scalar*>(M.values().data()), CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, cusparse_type<Scalar>()),
                          what);
    return descr;
  }

  void release_reuse() {
    if (descr_) cusparseSpGEMM_destroyDescr(descr_);
    if (matC_) cusparseDestroySpMat(matC_);
    descr_ = nullptr;
    matC_ = nullptr;
    buffer3_.reset();
    buffer4_.reset();
    buffer5_.reset();
    c_offsets_.reset();
    c_columns_.reset();
    c_values_.reset();
  }

  Matrix A_, B_;  // keep the shared column indices and values alive
  IntView a_offsets_, b_offsets_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matA_ = nullptr, matB_ = nullptr;
  // Reuse state: C's descriptor and arrays, the SpGEMM descriptor and the buffers that
  // cusparseSpGEMMreuse_compute needs (4 and 5; 3 only until the copy).
  cusparseSpMatDescr_t matC_ = nullptr;
  cusparseSpGEMMDescr_t descr_ = nullptr;
  CudaBuffer buffer3_, buffer4_, buffer5_, c_offsets_, c_columns_, c_values_;
};

}  // namespace kelp::bench
#endif

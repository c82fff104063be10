#pragma once
/// Block Jacobi preconditioner: M^{-1} = D_B^{-1}, D_B the block diagonal of A made of the
/// diagonal blocks of block_size consecutive rows (the last block smaller when block_size does
/// not divide n), or of user-given blocks of consecutive rows (BlockJacobiParams::block_starts). Setup extracts the blocks and factors them with the batched LU with partial
/// pivoting (kernels/batched/); apply solves every block with its factors, one kernel.

#include <algorithm>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kelp/kernels/batched/batched_lu.hpp"
#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::precond {

namespace impl {
/// blocks(b, i, j) = A(first + i, first + j) with first = starts(b), for the rows and columns of
/// block b (0 outside A's pattern, duplicates summed); rows and columns past the block's size
/// (up to the batch's dimension) are the identity, so that the padded block's LU pivots inside the
/// real part and solves leave the padding at 0.
template <class Matrix, class Blocks, class Starts, class RowBlock>
void extract_diagonal_blocks(const Matrix& A, const Blocks& blocks, const Starts& starts,
                             const RowBlock& row_block) {
  using Scalar = typename Matrix::scalar_type;
  using Offset = typename Matrix::offset_type;
  using Exec = typename Matrix::execution_space;
  const int n = A.num_rows();
  const int bs = int(blocks.extent(1));
  auto row_map = A.row_map();
  auto entries = A.entries();
  auto values = A.values();
  Kokkos::parallel_for(
      "kelp::precond::BlockJacobi::extract_blocks", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const int row) {
        const int b = row_block(row);
        const int first = starts(b);
        const int size = starts(b + 1) - first;
        const int i = row - first;
        for (int j = 0; j < bs; ++j) blocks(b, i, j) = Scalar(0);
        for (Offset k = row_map(row); k < row_map(row + 1); ++k) {
          const int j = entries(k) - first;
          if (j >= 0 && j < size) blocks(b, i, j) += values(k);
        }
      });
  Kokkos::parallel_for(
      "kelp::precond::BlockJacobi::pad_blocks", Kokkos::RangePolicy<Exec>(0, blocks.extent(0)),
      KOKKOS_LAMBDA(const int b) {
        const int size = starts(b + 1) - starts(b);
        for (int i = size; i < bs; ++i) {
          for (int j = 0; j < bs; ++j) blocks(b, i, j) = i == j ? Scalar(1) : Scalar(0);
          for (int j = 0; j < size; ++j) blocks(b, j, i) = Scalar(0);
        }
      });
}

/// y(rows of block b) = alpha * D_b^{-1} x(rows of block b) + beta * y, for one vector.
template <class Blocks, class Pivots, class Work, class Starts, class X, class Y, class Scalar>
struct BlockSolveOp {
  Blocks LU;
  Pivots piv;
  Work work;
  Starts starts;
  X x;
  Y y;
  Scalar alpha, beta;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int b) const {
    const int first = starts(b);
    const int rows = starts(b + 1) - first;
    const auto w = Kokkos::subview(work, b, Kokkos::ALL());
    ctx.for_range(int(w.extent(0)), [&](const int i) { w(i) = i < rows ? Scalar(x(first + i)) : Scalar(0); });
    ctx.barrier();
    kernels::batched::impl::lu_solve(ctx, Kokkos::subview(LU, b, Kokkos::ALL(), Kokkos::ALL()),
                                     Kokkos::subview(piv, b, Kokkos::ALL()), w);
    ctx.for_range(rows, [&](const int i) {
      const Scalar v = alpha * w(i);
      y(first + i) = beta == Scalar(0) ? v : v + beta * y(first + i);  // beta = 0 must not read y
    });
  }
};
}  // namespace impl

struct BlockJacobiParams {
  /// Rows per diagonal block, 1..256 (1 is point Jacobi); the last block takes the rest.
  int block_size = 5;
  /// User-given blocks instead: the first row of each block (0-based), starting with 0 and
  /// increasing, each block 1..256 rows, the last one ending at n. Empty (default): block_size.
  std::vector<int> block_starts = {};
};

/// Block Jacobi: y = alpha * D_B^{-1} x + beta * y.
/// Requires: square A whose diagonal blocks are nonsingular (checked in setup_numeric: the error
/// names the first singular block, its rows 1-based, the pivot column and the matrix label).
/// Memory: ceil(n / bs) blocks of bs x bs scalars, their pivots and one work vector of n rounded
/// up to bs. Apply: one kernel per vector (a thread per block on the host, a team per block with
/// vector lanes on a GPU). setup_numeric again re-extracts and refactors (values only).
/// Supports no_transpose only.
///
/// Example:
///   auto M = std::make_shared<kelp::precond::BlockJacobi<kelp::CrsMatrix<double>>>(
///       kelp::precond::BlockJacobiParams{6});
///   M->setup(A);
///   M->apply(r, z);
template <class Matrix>
class BlockJacobi : public Preconditioner<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Device = typename Matrix::device_type;
  using Base = Preconditioner<Matrix>;
  static constexpr int max_block_size = 256;

  explicit BlockJacobi(BlockJacobiParams params = {}, std::string matrix_label = {})
      : params_(params), matrix_label_(std::move(matrix_label)) {
    KELP_REQUIRE(params.block_size >= 1 && params.block_size <= max_block_size, InvalidArgument,
                 "kelp::precond::BlockJacobi: block_size = " << params.block_size << ", expected 1.."
                                                              << max_block_size);
  }

  const BlockJacobiParams& params() const { return params_; }
  const std::string& matrix_label() const { return matrix_label_; }
  int num_blocks() const { return int(blocks_.extent(0)); }

  std::string summary() const override {
    std::ostringstream out;
    if (params_.block_starts.empty()) {
      out << "block_jacobi (block size " << params_.block_size << ", " << num_blocks() << " blocks)";
    } else {
      out << "block_jacobi (" << params_.block_starts.size() << " user-given blocks)";
    }
    return out.str();
  }

 protected:
  const char* name() const override { return "kelp::precond::BlockJacobi"; }

  void setup_symbolic_impl(const Matrix& A) override {
    const std::vector<int> starts = block_starts(A.num_rows());
    const int num_blocks = int(starts.size()) - 1;
    int bs = 0;  // the batch's dimension: the largest block
    for (int b = 0; b < num_blocks; ++b) bs = std::max(bs, starts[b + 1] - starts[b]);
    starts_ = Kokkos::View<int*, Device>("kelp::precond::BlockJacobi::starts", starts.size());
    row_block_ = Kokkos::View<int*, Device>("kelp::precond::BlockJacobi::row_block", A.num_rows());
    auto starts_h = Kokkos::create_mirror_view(starts_);
    auto row_block_h = Kokkos::create_mirror_view(row_block_);
    for (int b = 0; b < num_blocks; ++b) {
      starts_h(b + 1) = starts[b + 1];
      for (int row = starts[b]; row < starts[b + 1]; ++row) row_block_h(row) = b;
    }
    starts_h(0) = 0;
    Kokkos::deep_copy(starts_, starts_h);
    Kokkos::deep_copy(row_block_, row_block_h);
    starts_host_ = starts;
    using kernels::batched::BatchMatrices;
    blocks_ = BatchMatrices<Scalar, Device>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::BlockJacobi::blocks"),
        num_blocks, bs, bs);
    pivots_ = kernels::batched::BatchPivots<Device>("kelp::precond::BlockJacobi::pivots", num_blocks, bs);
    status_ = kernels::batched::BatchStatus<Device>("kelp::precond::BlockJacobi::status", num_blocks);
    work_ = kernels::batched::BatchVectors<Scalar, Device>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::BlockJacobi::work"),
        num_blocks, bs);
  }

  void setup_numeric_impl(const Matrix& A) override {
    impl::extract_diagonal_blocks(A, blocks_, starts_, row_block_);
    kernels::batched::lu_factor(mode(), blocks_, pivots_, status_);
    const auto failed = kernels::batched::failed_problems(status_);
    if (!failed.empty()) {
      const int b = failed.front();
      int status = 0;
      Kokkos::deep_copy(status, Kokkos::subview(status_, b));
      const long long first = starts_host_[b] + 1;
      const long long last = starts_host_[b + 1];
      const int column = status > 0 ? status : -status;
      KELP_THROW(NumericalError,
                 "kelp::precond::BlockJacobi::setup_numeric: diagonal block "
                     << b + 1 << " of " << num_blocks() << " (rows " << first << ".." << last
                     << ", 1-based)"
                     << (matrix_label_.empty() ? "" : " of matrix '" + matrix_label_ + "'") << " is "
                     << (status > 0 ? "singular: zero pivot" : "not finite: non-finite pivot")
                     << " in its column " << column << " (row " << first + column - 1 << ")"
                     << (failed.size() > 1 ? "; " + std::to_string(failed.size()) + " blocks fail in all" : "")
                     << "; block Jacobi needs nonsingular, finite diagonal blocks");
    }
  }

  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode) const override {
    using Exec = typename Device::execution_space;
    using Op = impl::BlockSolveOp<decltype(blocks_), decltype(pivots_), decltype(work_), decltype(starts_),
                                  typename Base::const_vector_type, typename Base::vector_type, Scalar>;
    kernels::batched::impl::launch<Exec>("kelp::precond::BlockJacobi::apply", mode(), num_blocks(),
                                         int(blocks_.extent(1)), Op{blocks_, pivots_, work_, starts_, x, y, alpha, beta});
  }

  /// Column by column (the work vector holds one column).
  void apply_block_impl(typename Base::const_multivector_type X, typename Base::multivector_type Y,
                        Scalar alpha, Scalar beta, OperatorMode op_mode) const override {
    for (std::size_t j = 0; j < X.extent(1); ++j) {
      typename Base::const_vector_type x = Kokkos::subview(X, Kokkos::ALL(), j);
      typename Base::vector_type y = Kokkos::subview(Y, Kokkos::ALL(), j);
      apply_impl(x, y, alpha, beta, op_mode);
    }
  }

 private:
  /// A thread per block on the host; a team per block with vector lanes on a device.
  static kernels::batched::Mode mode() {
    return std::is_same<typename Device::execution_space, Kokkos::DefaultHostExecutionSpace>::value
               ? kernels::batched::Mode::serial
               : kernels::batched::Mode::team_vector;
  }

  /// The first row of every block and n at the end, checked against A's size.
  std::vector<int> block_starts(int n) const {
    std::vector<int> starts;
    if (params_.block_starts.empty()) {
      for (int first = 0; first < n; first += params_.block_size) starts.push_back(first);
    } else {
      starts = params_.block_starts;
      KELP_REQUIRE(starts.front() == 0, InvalidArgument,
                   "kelp::precond::BlockJacobi::setup_symbolic: block_starts begins with "
                       << starts.front() << ", expected 0");
      for (std::size_t b = 0; b < starts.size(); ++b) {
        const int end = b + 1 < starts.size() ? starts[b + 1] : n;
        KELP_REQUIRE(end > starts[b] && end - starts[b] <= max_block_size, InvalidArgument,
                     "kelp::precond::BlockJacobi::setup_symbolic: block " << b + 1 << " (0-based rows "
                         << starts[b] << ".." << end - 1 << ") has " << end - starts[b]
                         << " rows, expected 1.." << max_block_size << " (block_starts must increase, "
                         << "the last below n = " << n << ")");
      }
    }
    starts.push_back(n);
    return starts;
  }

  BlockJacobiParams params_;
  std::string matrix_label_;
  std::vector<int> starts_host_;
  Kokkos::View<int*, Device> starts_, row_block_;
  kernels::batched::BatchMatrices<Scalar, Device> blocks_;
  kernels::batched::BatchPivots<Device> pivots_;
  kernels::batched::BatchStatus<Device> status_;
  kernels::batched::BatchVectors<Scalar, Device> work_;
};

// Compiled once for the standard scalars, in precond/eti/ (see kernels/core/eti.hpp).
#define KELP_BLOCK_JACOBI_ETI(PREFIX, S) PREFIX template class BlockJacobi<CrsMatrix<S>>;
KELP_ETI_FOR_EACH_SCALAR(KELP_BLOCK_JACOBI_ETI, extern)

}  // namespace kelp::precond

#pragma once
/// The one interface shared by matrices, preconditioners and solvers.

#include <cstddef>
#include <cstdint>
#include <string>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp {

/// Which operator apply() applies: op(A) = A, A^T or A^H. An operator says which it can do
/// through Operator::supports(); every operator supports no_transpose.
enum class OperatorMode {
  no_transpose,         ///< op(A) = A
  transpose,            ///< op(A) = A^T
  conjugate_transpose,  ///< op(A) = A^H (= A^T for real scalars)
};

inline std::string to_string(OperatorMode mode) {
  switch (mode) {
    case OperatorMode::no_transpose:
      return "no_transpose";
    case OperatorMode::transpose:
      return "transpose";
    case OperatorMode::conjugate_transpose:
      return "conjugate_transpose";
  }
  return "unknown";
}

/// True for the modes whose op(A) is num_cols x num_rows.
inline bool is_transposed(OperatorMode mode) { return mode != OperatorMode::no_transpose; }

namespace impl {
/// The memory of a rank-1 view, or of a rank-2 LayoutLeft view: `count` columns of `length`
/// bytes, `stride` bytes apart, from `first`.
struct ColumnIntervals {
  std::uintptr_t first = 0;
  std::uintptr_t length = 0;
  std::uintptr_t stride = 0;
  std::size_t count = 0;
};

template <class V>
ColumnIntervals column_intervals(const V& v) {
  using Value = typename V::value_type;
  ColumnIntervals c;
  c.first = reinterpret_cast<std::uintptr_t>(v.data());
  c.length = v.extent(0) * sizeof(Value);
  if constexpr (V::rank == 2) {
    c.stride = v.stride(1) * sizeof(Value);
    c.count = v.extent(0) == 0 ? 0 : v.extent(1);
  } else {
    c.count = v.extent(0) == 0 ? 0 : 1;
  }
  return c;
}

/// Whether two views (rank 1, or rank 2 LayoutLeft) share memory. Exact, column by column, so
/// disjoint column blocks of one multi-vector do not count as aliasing. Host only, O(k_a + k_b),
/// reads no element.
template <class A, class B>
bool memory_overlaps(const A& a, const B& b) {
  const ColumnIntervals ca = column_intervals(a), cb = column_intervals(b);
  // Each list is sorted and disjoint (LayoutLeft: stride >= rows), so merge them.
  std::size_t i = 0, j = 0;
  while (i < ca.count && j < cb.count) {
    const std::uintptr_t a0 = ca.first + i * ca.stride, a1 = a0 + ca.length;
    const std::uintptr_t b0 = cb.first + j * cb.stride, b1 = b0 + cb.length;
    if (a0 < b1 && b0 < a1) return true;
    if (a1 <= b1) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}
}  // namespace impl

/// A linear operator:  y = alpha * op(A) x + beta * y, on one vector or a block of k vectors.
///
/// Matrices (MatrixOperator), preconditioners (approximations of A^{-1}), Krylov solvers and
/// matrix-free operators (FunctionOperator, RowOperator) all implement it, so any of them can be
/// composed with any other. The public apply() overloads are non-virtual: they check readiness,
/// the mode, the shapes and aliasing once, then call the protected hooks, which may assume all of
/// that. beta = 0 must overwrite y without reading it (NaN in y does not propagate).
///
/// Blocks are LayoutLeft rank-2 views (one column per vector; Kokkos::subview column ranges of a
/// LayoutLeft multi-vector qualify). The block hook defaults to one apply_impl per column;
/// operators with a real block kernel (SpMMV) override apply_block_impl.
///
/// Example:
///   kelp::MatrixOperator<kelp::CrsMatrix<double>> A_op(A);
///   A_op.apply(x, y);                                       // y = A x
///   A_op.apply(X, Y, 2.0, 1.0);                             // Y = 2 A X + Y, X, Y n x k
///   A_op.apply(x, y, 1.0, 0.0, kelp::OperatorMode::transpose);  // y = A^T x
template <class Scalar, class Device = DefaultDevice>
class Operator {
 public:
  using scalar_type = Scalar;
  using device_type = Device;
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using const_multivector_type = ConstMultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;

  virtual ~Operator() = default;
  virtual Ordinal num_rows() const = 0;
  virtual Ordinal num_cols() const = 0;
  /// One line for logs and hierarchy printouts.
  virtual std::string summary() const = 0;
  /// True when applying the operator twice to the same x can give different results, or when
  /// it is not linear in x: an inner Krylov solver run to a tolerance. Methods that need a fixed
  /// linear preconditioner (plain CG) refuse such operators; flexible ones accept them.
  virtual bool is_variable() const { return false; }
  /// Whether apply() accepts `mode`. Default: no_transpose only.
  virtual bool supports(OperatorMode mode) const { return mode == OperatorMode::no_transpose; }
  /// d when this operator is diag(d) (op(A) x = d .* x in mode no_transpose), else an empty
  /// view. Solvers use it to fuse the application into their vector updates (one pass instead
  /// of several); valid once the operator is ready to apply.
  virtual const_vector_type pointwise_diagonal() const { return {}; }

  /// y = alpha * op(A) x + beta * y for one vector.
  /// @param[in]     x     length: columns of op(A) (num_rows() for the transposed modes)
  /// @param[in,out] y     length: rows of op(A); not read when beta = 0
  /// @param[in]     mode  op(A): A (default), A^T or A^H, if supports(mode)
  /// @throws InvalidState when the operator is not ready (a preconditioner before setup),
  ///         InvalidArgument for an unsupported mode or when x and y overlap,
  ///         DimensionMismatch when x or y has the wrong length
  void apply(const_vector_type x, vector_type y, Scalar alpha = Scalar(1), Scalar beta = Scalar(0),
             OperatorMode mode = OperatorMode::no_transpose) const {
    check_call(mode, x, y);
    apply_impl(x, y, alpha, beta, mode);
  }

  /// y = A x and local_dot = conj(x)^T y over this process's rows, in one pass, when the
  /// operator can fuse them (a matrix whose SpMV allows it); returns false and does nothing
  /// otherwise. Solvers then apply and reduce separately. Square operators only; checked like
  /// apply. The dot is local: a solver sums it over processes with its reduction policy.
  bool try_apply_and_dot(const_vector_type x, vector_type y, Scalar& local_dot) const {
    check_call(OperatorMode::no_transpose, x, y);
    if (num_rows() != num_cols()) return false;
    return apply_and_dot_impl(x, y, local_dot);
  }

  /// Y = alpha * op(A) X + beta * Y for a block of k vectors (k = 0: nothing to do).
  /// Column j of Y equals apply() of column j of X. Same contract as the vector overload; X and Y
  /// must also have the same number of columns (DimensionMismatch otherwise).
  void apply(const_multivector_type X, multivector_type Y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0), OperatorMode mode = OperatorMode::no_transpose) const {
    check_call(mode, X, Y);
    KELP_REQUIRE(X.extent(1) == Y.extent(1), DimensionMismatch,
                 "kelp::Operator::apply: dimension mismatch: X has " << X.extent(1)
                     << " columns, Y has " << Y.extent(1) << "; expected the same number");
    if (X.extent(1) == 0) return;
    apply_block_impl(X, Y, alpha, beta, mode);
  }

 protected:
  /// Throws InvalidState when the operator cannot be applied yet (a preconditioner before its
  /// setup): checked before the shapes, so the message says what is missing.
  virtual void check_ready() const {}
  /// y = alpha * op(A) x + beta * y; mode is supported, shapes are right, y does not overlap x.
  virtual void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta,
                          OperatorMode mode) const = 0;
  /// y = A x and local_dot = conj(x)^T y fused (true), or nothing (false, the default).
  virtual bool apply_and_dot_impl(const_vector_type x, vector_type y, Scalar& local_dot) const {
    (void)x;
    (void)y;
    (void)local_dot;
    return false;
  }
  /// Y = alpha * op(A) X + beta * Y with k >= 1 columns, checked like apply_impl's arguments.
  /// Default: apply_impl column by column. Override when a block kernel reads A once for all k.
  virtual void apply_block_impl(const_multivector_type X, multivector_type Y, Scalar alpha,
                                Scalar beta, OperatorMode mode) const {
    for (std::size_t j = 0; j < X.extent(1); ++j) {
      apply_impl(Kokkos::subview(X, Kokkos::ALL, j), Kokkos::subview(Y, Kokkos::ALL, j), alpha,
                 beta, mode);
    }
  }

 private:
  template <class XView, class YView>
  void check_call(OperatorMode mode, const XView& x, const YView& y) const {
    check_ready();
    KELP_REQUIRE(supports(mode), InvalidArgument,
                 "kelp::Operator::apply: " << summary() << " does not support mode "
                                           << to_string(mode) << "; it supports no_transpose"
                                           << (supports(OperatorMode::transpose) ? ", transpose" : "")
                                           << (supports(OperatorMode::conjugate_transpose)
                                                   ? ", conjugate_transpose"
                                                   : ""));
    const bool transposed = is_transposed(mode);
    const long long in = transposed ? num_rows() : num_cols();
    const long long out = transposed ? num_cols() : num_rows();
    const char* x_name = XView::rank == 2 ? "X" : "x";
    const char* y_name = YView::rank == 2 ? "Y" : "y";
    KELP_REQUIRE(static_cast<long long>(x.extent(0)) == in, DimensionMismatch,
                 "kelp::Operator::apply: dimension mismatch: "
                     << summary() << " is " << num_rows() << " x " << num_cols() << " (mode "
                     << to_string(mode) << "), " << x_name << " has " << x.extent(0)
                     << " rows, expected " << in);
    KELP_REQUIRE(static_cast<long long>(y.extent(0)) == out, DimensionMismatch,
                 "kelp::Operator::apply: dimension mismatch: "
                     << summary() << " is " << num_rows() << " x " << num_cols() << " (mode "
                     << to_string(mode) << "), " << y_name << " has " << y.extent(0)
                     << " rows, expected " << out);
    KELP_REQUIRE(!impl::memory_overlaps(x, y), InvalidArgument,
                 "kelp::Operator::apply: " << x_name << " and " << y_name
                                           << " overlap in memory; " << y_name << " must not alias "
                                           << x_name);
  }
};

}  // namespace kelp

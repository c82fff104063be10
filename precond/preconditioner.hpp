#pragma once
/// The preconditioner interface: an Operator approximating A^{-1}, with separate setup phases.

#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/pattern_fingerprint.hpp"

namespace kelp::precond {

/// Setup is split so that a time-stepping code whose matrix keeps its pattern calls only
/// setup_numeric when values change.
///
/// The contract lives here, once: the public setup_symbolic, setup_numeric and apply are
/// non-virtual; they check the order and the pattern and then call the protected *_impl hooks,
/// which may rely on a square matrix, the right order and (for setup_numeric_impl) the pattern
/// that setup_symbolic_impl saw.
///   - setup_symbolic on a non-square matrix: DimensionMismatch.
///   - setup_numeric before setup_symbolic, or on a matrix whose pattern differs from the one
///     given to setup_symbolic (pattern_fingerprint: shape, row_map and entries): InvalidState.
///   - apply before setup_numeric: InvalidState naming the missing call (never "0 x 0").
template <class Matrix>
class Preconditioner : public Operator<typename Matrix::scalar_type, typename Matrix::device_type> {
 public:
  using matrix_type = Matrix;
  /// Pattern-only work (fill pattern, coloring, level sets).
  void setup_symbolic(const Matrix& A) {
    KELP_REQUIRE(A.num_rows() == A.num_cols(), DimensionMismatch,
                 name() << "::setup_symbolic: matrix is " << A.num_rows() << " x " << A.num_cols()
                        << ", expected square");
    numeric_done_ = false;
    setup_symbolic_impl(A);
    fingerprint_ = pattern_fingerprint(A);
  }
  /// Value work; call again whenever A's values change (same pattern).
  void setup_numeric(const Matrix& A) {
    KELP_REQUIRE(fingerprint_.num_rows >= 0, InvalidState,
                 name() << "::setup_numeric: called before setup_symbolic");
    const auto now = pattern_fingerprint(A);
    KELP_REQUIRE(now == fingerprint_, InvalidState,
                 name() << "::setup_numeric: the matrix pattern differs from the one given to "
                           "setup_symbolic ("
                        << now.num_rows << " x " << now.num_cols << ", nnz " << now.nnz << " vs "
                        << fingerprint_.num_rows << " x " << fingerprint_.num_cols << ", nnz "
                        << fingerprint_.nnz << "); call setup_symbolic again");
    numeric_done_ = false;
    setup_numeric_impl(A);
    numeric_done_ = true;
  }
  /// setup_symbolic followed by setup_numeric.
  void setup(const Matrix& A) {
    setup_symbolic(A);
    setup_numeric(A);
  }
  /// True once setup_numeric has succeeded (apply is allowed).
  bool is_set_up() const { return numeric_done_; }

  Ordinal num_rows() const final {
    return fingerprint_.num_rows < 0 ? 0 : static_cast<Ordinal>(fingerprint_.num_rows);
  }
  Ordinal num_cols() const final { return num_rows(); }

 protected:
  /// The qualified class name for messages, e.g. "kelp::precond::Jacobi".
  virtual const char* name() const = 0;
  virtual void setup_symbolic_impl(const Matrix& A) = 0;
  virtual void setup_numeric_impl(const Matrix& A) = 0;
  void check_ready() const final {
    KELP_REQUIRE(numeric_done_, InvalidState,
                 name() << "::apply: called before setup_numeric (call setup, or setup_symbolic "
                           "then setup_numeric)");
  }

 private:
  PatternFingerprint fingerprint_;
  bool numeric_done_ = false;
};

}  // namespace kelp::precond

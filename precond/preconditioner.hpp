#pragma once
/// The preconditioner interface: an Operator approximating A^{-1}, with separate setup phases.

#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/pattern_fingerprint.hpp"

namespace kelp::precond {

/// Setup is split so that a time-stepping code whose matrix keeps its pattern calls only
/// setup_numeric when values change. setup_numeric with a different pattern throws InvalidState;
/// apply before setup_numeric throws InvalidState.
template <class Matrix>
class Preconditioner : public Operator<typename Matrix::scalar_type, typename Matrix::device_type> {
 public:
  using matrix_type = Matrix;
  /// Pattern-only work (fill pattern, coloring, level sets).
  virtual void setup_symbolic(const Matrix& A) = 0;
  /// Value work; call again whenever A's values change (same pattern).
  virtual void setup_numeric(const Matrix& A) = 0;
  /// setup_symbolic followed by setup_numeric.
  void setup(const Matrix& A) {
    setup_symbolic(A);
    setup_numeric(A);
  }
};

/// Bookkeeping every preconditioner needs for the setup-order rules.
class SetupState {
 public:
  template <class Matrix>
  void record_symbolic(const Matrix& A) {
    fingerprint_ = pattern_fingerprint(A);
    numeric_done_ = false;
  }
  /// Throws InvalidState unless setup_symbolic ran on a matrix with A's pattern.
  template <class Matrix>
  void check_numeric(const char* where, const Matrix& A) const {
    KELP_REQUIRE(fingerprint_.num_rows >= 0, InvalidState, where << ": called before setup_symbolic");
    const auto now = pattern_fingerprint(A);
    KELP_REQUIRE(now == fingerprint_, InvalidState,
                 where << ": the matrix pattern differs from the one given to setup_symbolic ("
                       << now.num_rows << " x " << now.num_cols << ", nnz " << now.nnz << " vs "
                       << fingerprint_.num_rows << " x " << fingerprint_.num_cols << ", nnz "
                       << fingerprint_.nnz << "); call setup_symbolic again");
  }
  void record_numeric() { numeric_done_ = true; }
  void check_apply(const char* where) const {
    KELP_REQUIRE(numeric_done_, InvalidState,
                 where << ": called before setup_numeric (call setup or setup_symbolic + setup_numeric)");
  }
  long long num_rows() const { return fingerprint_.num_rows < 0 ? 0 : fingerprint_.num_rows; }

 private:
  PatternFingerprint fingerprint_;
  bool numeric_done_ = false;
};

}  // namespace kelp::precond

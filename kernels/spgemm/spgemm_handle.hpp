#pragma once
/// The handle of SpGEMM (C = A·B and the Jacobi-fused C = (I − ω D⁻¹ A)·P): symbolic state and
/// algorithm choice.
///
/// Contract:
///  - spgemm_symbolic (or jacobi_spgemm_symbolic) records the shapes and pattern fingerprints of
///    A and B, the pattern of C (row_map and sorted entries, which it also hands to C) and the
///    accumulator it chose;
///  - spgemm_numeric then takes the same A and B patterns (values may change) and the C that the
///    symbolic phase produced, and only recomputes C's values: no allocation, no pattern work.
///    A different pattern, other shapes, another C, or the wrong phase order throw, naming both
///    the operand seen now and the one the symbolic phase saw;
///  - calling a symbolic phase again starts over with new operands.
/// Movable, not copyable. Not safe to use from several execution-space instances at once (the
/// dense accumulator's scratch belongs to the handle).

#include <utility>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/pattern_fingerprint.hpp"

namespace kelp::kernels {

/// Accumulator of SpGEMM's row products.
///  - dense: one array as wide as C per concurrent thread (markers/positions); each product is
///    one indexed access. Chosen when those arrays fit a memory budget (C narrow enough for the
///    backend's concurrency), which on CPUs is almost always.
///  - hash: one team per row with an open-addressing hash table sized to the row's product
///    count, in team-shared scratch when the longest row fits (level 0), in per-team global
///    scratch otherwise (level 1); the numeric phase finds each column by binary search in C's
///    sorted row and adds atomically.
///  - automatic: dense when its arrays fit the budget, hash otherwise.
enum class SpgemmAlgorithm { automatic, dense, hash };

inline const char* to_string(SpgemmAlgorithm algorithm) {
  switch (algorithm) {
    case SpgemmAlgorithm::automatic: return "automatic";
    case SpgemmAlgorithm::dense: return "dense";
    case SpgemmAlgorithm::hash: return "hash";
  }
  return "unknown";
}

template <class Matrix>
class SpgemmHandle {
 public:
  using row_map_type = typename Matrix::row_map_type;
  using entries_type = typename Matrix::entries_type;
  /// Dense accumulator scratch: one row of width num_cols(C) per concurrent thread; holds row
  /// stamps in the symbolic phase and positions in C's row in the numeric phase.
  using accumulator_type = Kokkos::View<long long*, typename Matrix::device_type>;

  /// What the symbolic phase recorded (read by the numeric phase; not for callers to edit).
  struct Symbolic {
    bool done = false;
    bool jacobi = false;  ///< symbolic phase of the Jacobi-fused product
    SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic;  ///< the one chosen
    PatternFingerprint a;
    PatternFingerprint b;
    row_map_type row_map;  ///< C's
    entries_type entries;  ///< C's, sorted in each row
    long long c_num_rows = 0;
    long long c_num_cols = 0;
    long long max_row_products = 0;  ///< largest number of multiply-adds of one row of C
    long long products = 0;          ///< multiply-adds of the whole product
    accumulator_type accumulator;    ///< dense accumulator (empty for hash)
    int hash_capacity = 0;           ///< hash table slots per row (hash)
  };

  explicit SpgemmHandle(SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic)
      : requested_(algorithm) {}
  SpgemmHandle(const SpgemmHandle&) = delete;
  SpgemmHandle& operator=(const SpgemmHandle&) = delete;
  SpgemmHandle(SpgemmHandle&&) = default;
  SpgemmHandle& operator=(SpgemmHandle&&) = default;

  SpgemmAlgorithm requested_algorithm() const { return requested_; }
  /// The accumulator the symbolic phase chose (automatic before it ran).
  SpgemmAlgorithm algorithm() const { return state_.algorithm; }
  bool has_symbolic() const { return state_.done; }
  /// nnz of C, known after the symbolic phase.
  long long nnz() const { return state_.done ? static_cast<long long>(state_.entries.extent(0)) : 0; }
  /// Multiply-adds of one numeric phase (2 flops each), known after the symbolic phase.
  long long products() const { return state_.products; }

  Symbolic& state() { return state_; }
  const Symbolic& state() const { return state_; }

 private:
  SpgemmAlgorithm requested_;
  Symbolic state_;
};

}  // namespace kelp::kernels

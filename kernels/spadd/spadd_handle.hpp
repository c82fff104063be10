#pragma once
/// The handle of SpAdd (C = αA + βB): C's pattern and the patterns of A and B it came from.
///
/// Contract: spadd_symbolic records the shapes and pattern fingerprints of A and B and builds
/// C's pattern (row_map, sorted unique entries), which it hands to C; spadd_numeric then takes A
/// and B with those patterns (values and α, β may change) and the C of the symbolic phase, and
/// writes C's values only. Other patterns, shapes or C, or the wrong order, throw and name both
/// sides. Movable, not copyable; one execution-space instance at a time.

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/pattern_fingerprint.hpp"

namespace kelp::kernels {

template <class Matrix>
class SpaddHandle {
 public:
  /// What the symbolic phase recorded (read by the numeric phase; not for callers to edit).
  struct Symbolic {
    bool done = false;
    PatternFingerprint a;
    PatternFingerprint b;
    typename Matrix::row_map_type row_map;  ///< C's
    typename Matrix::entries_type entries;  ///< C's, sorted and unique in each row
  };

  SpaddHandle() = default;
  SpaddHandle(const SpaddHandle&) = delete;
  SpaddHandle& operator=(const SpaddHandle&) = delete;
  SpaddHandle(SpaddHandle&&) = default;
  SpaddHandle& operator=(SpaddHandle&&) = default;

  bool has_symbolic() const { return state_.done; }
  long long nnz() const { return state_.done ? static_cast<long long>(state_.entries.extent(0)) : 0; }
  Symbolic& state() { return state_; }
  const Symbolic& state() const { return state_; }

 private:
  Symbolic state_;
};

}  // namespace kelp::kernels

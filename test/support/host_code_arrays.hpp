#pragma once
// CSR arrays as a PDE code would own them (its own allocations, 32-bit row offsets, in the
// default device's memory), for the tests of kelp::wrap_crs and the embedding workflow.
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::test {

/// The three CSR arrays a host code owns. Views here only stand in for the host code's own
/// allocations (cudaMalloc, new[]...): Kelp gets raw pointers to them.
template <class Scalar, class OffsetT = int>
struct HostCodeArrays {
  int num_rows = 0;
  int num_cols = 0;
  Kokkos::View<OffsetT*, DefaultDevice> row_map;
  Kokkos::View<int*, DefaultDevice> entries;
  Kokkos::View<Scalar*, DefaultDevice> values;
};

/// Copies A into freshly allocated arrays with OffsetT row offsets.
template <class OffsetT = int, class Scalar>
HostCodeArrays<Scalar, OffsetT> host_code_arrays_of(const CrsMatrix<Scalar>& A) {
  HostCodeArrays<Scalar, OffsetT> out;
  out.num_rows = A.num_rows();
  out.num_cols = A.num_cols();
  out.row_map = decltype(out.row_map)("host_code::row_map", A.num_rows() + 1);
  out.entries = decltype(out.entries)("host_code::entries", A.nnz());
  out.values = decltype(out.values)("host_code::values", A.nnz());
  auto row_map_in = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  auto row_map_out = Kokkos::create_mirror_view(out.row_map);
  for (int i = 0; i <= A.num_rows(); ++i) row_map_out(i) = static_cast<OffsetT>(row_map_in(i));
  Kokkos::deep_copy(out.row_map, row_map_out);
  Kokkos::deep_copy(out.entries, A.entries());
  Kokkos::deep_copy(out.values, A.values());
  return out;
}

}  // namespace kelp::test

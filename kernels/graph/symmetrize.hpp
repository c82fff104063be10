#pragma once
/// Pattern transpose and symmetrization (A + A^T) of CRS graphs.

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/crs_from_keys.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels {

/// Pattern of A^T: an num_cols x num_rows graph with entry (j, i) for every stored (i, j).
///
/// Rows come out sorted, with duplicates merged. Self loops are kept (this is a pattern
/// transpose, not a graph operation). Cost: one sort of nnz 64-bit keys.
/// Throws InvalidArgument for a malformed graph (columns outside [0, num_cols), bad row_map).
template <class Device>
Graph<Device> transpose(const Graph<Device>& g) {
  using Exec = typename Device::execution_space;
  impl::require_valid_graph(g, "kelp::kernels::transpose", false);
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal num_rows = g.num_rows();
  Kokkos::View<std::int64_t*, Device> keys(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::transpose::keys"), g.nnz());
  Kokkos::parallel_for(
      "kelp::kernels::transpose::keys", Kokkos::RangePolicy<Exec>(0, num_rows),
      KOKKOS_LAMBDA(const Ordinal i) {
        for (Offset k = row_map(i); k < row_map(i + 1); ++k) keys(k) = impl::edge_key(entries(k), i, num_rows);
      });
  return impl::crs_from_keys(keys, g.num_cols(), num_rows);
}

/// Pattern of A + A^T without the diagonal: the undirected graph of a square pattern.
///
/// The coloring, MIS-2 and aggregation kernels assume a structurally symmetric graph; call this
/// first for a nonsymmetric matrix. Rows come out sorted and duplicate-free, self loops dropped.
/// Cost: one sort of 2 nnz 64-bit keys.
/// Throws DimensionMismatch for a non-square graph, InvalidArgument for a malformed one.
template <class Device>
Graph<Device> symmetrize(const Graph<Device>& g) {
  using Exec = typename Device::execution_space;
  impl::require_valid_graph(g, "kelp::kernels::symmetrize", true);
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal n = g.num_rows();
  Kokkos::View<std::int64_t*, Device> keys(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::symmetrize::keys"),
      2 * g.nnz());
  Kokkos::parallel_for(
      "kelp::kernels::symmetrize::keys", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal i) {
        for (Offset k = row_map(i); k < row_map(i + 1); ++k) {
          const Ordinal j = entries(k);
          keys(2 * k) = i == j ? -1 : impl::edge_key(i, j, n);
          keys(2 * k + 1) = i == j ? -1 : impl::edge_key(j, i, n);
        }
      });
  return impl::crs_from_keys(keys, n, n);
}

#define KELP_GRAPH_SYMMETRIZE_ETI(PREFIX, DEVICE)                            \
  PREFIX template Graph<DEVICE> transpose<DEVICE>(const Graph<DEVICE>& g); \
  PREFIX template Graph<DEVICE> symmetrize<DEVICE>(const Graph<DEVICE>& g);

KELP_GRAPH_SYMMETRIZE_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels

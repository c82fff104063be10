#pragma once
/// Strength-of-connection graph of a matrix (the graph AMG aggregates).

#include <Kokkos_Core.hpp>

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels {

/// The graph of the strong off-diagonal connections of a square matrix A:
///   (i, j), i != j, is kept when |a_ij|^2 >= theta^2 |a_ii| |a_jj|
/// (the symmetric criterion of smoothed aggregation, Vanek, Mandel and Brezina 1996), evaluated
/// as |a_ij| >= theta sqrt(|a_ii|) sqrt(|a_jj|) so that it holds for A scaled by any factor
/// (the squares under- or overflowed near 1e+-154 and every entry became strong). theta = 0
/// keeps every off-diagonal entry: the graph of A without self loops.
///
/// [in] A: square matrix; duplicate diagonal entries are summed; rows keep their order. A
/// duplicated off-diagonal entry is judged one stored copy at a time (for the criterion on
/// their sum, assemble A without duplicates: crs_from_coo sums them).
/// [in] theta: threshold in [0, 1).
/// For a symmetric A the result is symmetric; for a nonsymmetric one it may not be (symmetrize()
/// it before coloring or aggregating). Cost: three passes over A, no sort.
/// Throws DimensionMismatch for a non-square A, InvalidArgument for a malformed A or a theta
/// outside [0, 1).
template <class Scalar, class Device>
Graph<Device> strength_graph(const CrsMatrix<Scalar, Ordinal, Offset, Device>& A, double theta) {
  using Exec = typename Device::execution_space;
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  impl::require_valid_graph(A.graph(), "kelp::kernels::strength_graph", true);
  KELP_REQUIRE(theta >= 0 && theta < 1, InvalidArgument,
               "kelp::kernels::strength_graph: theta = " << theta << " is outside [0, 1)");
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  const Ordinal n = A.num_rows();
  const Mag theta_m = static_cast<Mag>(theta);
  // sqrt(|a_ii|): the criterion's factors, each within range whatever A's scale.
  Kokkos::View<Mag*, Device> diagonal(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::strength_graph::diagonal"), n);
  Kokkos::parallel_for(
      "kelp::kernels::strength_graph::diagonal", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const Ordinal i) {
        Scalar d = Scalar(0);
        for (Offset k = row_map(i); k < row_map(i + 1); ++k) {
          if (entries(k) == i) d += values(k);
        }
        diagonal(i) = Kokkos::Experimental::sqrt(ScalarTraits<Scalar>::abs(d));
      });
  const auto strong = KOKKOS_LAMBDA(const Ordinal i, const Offset k) {
    const Ordinal j = entries(k);
    return j != i && ScalarTraits<Scalar>::abs(values(k)) >= theta_m * diagonal(i) * diagonal(j);
  };
  Kokkos::View<Offset*, Device> out_row_map("kelp::kernels::strength_graph::row_map", n + 1);
  Kokkos::parallel_for(
      "kelp::kernels::strength_graph::count", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const Ordinal i) {
        Offset count = 0;
        for (Offset k = row_map(i); k < row_map(i + 1); ++k) count += strong(i, k) ? 1 : 0;
        out_row_map(i + 1) = count;
      });
  Offset nnz = 0;
  Kokkos::parallel_scan(
      "kelp::kernels::strength_graph::row_map", Kokkos::RangePolicy<Exec>(0, n + 1),
      KOKKOS_LAMBDA(const Ordinal i, Offset& sum, const bool final) {
        sum += out_row_map(i);
        if (final) out_row_map(i) = sum;
      },
      nnz);
  Kokkos::View<Ordinal*, Device> out_entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::strength_graph::entries"), nnz);
  Kokkos::parallel_for(
      "kelp::kernels::strength_graph::fill", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const Ordinal i) {
        Offset position = out_row_map(i);
        for (Offset k = row_map(i); k < row_map(i + 1); ++k) {
          if (strong(i, k)) out_entries(position++) = entries(k);
        }
      });
  return Graph<Device>(n, n, out_row_map, out_entries);
}

#define KELP_GRAPH_STRENGTH_ETI(PREFIX, SCALAR)                                            \
  PREFIX template Graph<DefaultDevice> strength_graph<SCALAR, DefaultDevice>(            \
      const CrsMatrix<SCALAR, Ordinal, Offset, DefaultDevice>&, double);

KELP_ETI_FOR_EACH_SCALAR(KELP_GRAPH_STRENGTH_ETI, extern)

}  // namespace kelp::kernels

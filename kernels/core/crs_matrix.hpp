#pragma once
/// Compressed-row-storage graph and matrix containers.
///
/// Row i of a CrsMatrix holds the entries k in [row_map(i), row_map(i+1)): column entries(k),
/// value values(k). Rows built by crs_from_coo are sorted with unique columns; kernels do not
/// require sorted rows unless their documentation says so.

#include <string>
#include <type_traits>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/stencil_description.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp {

namespace impl {
/// Hands a stencil description from one matrix to another of the same pattern without the
/// O(nnz) check: only for operations that keep the pattern by construction (copy_to).
struct StencilTransfer;
}  // namespace impl

/// Sparsity pattern in CRS form: row_map (num_rows + 1 offsets) and entries (column indices).
template <class OrdinalT = Ordinal, class OffsetT = Offset, class DeviceT = DefaultDevice>
class CrsGraph {
 public:
  using ordinal_type = OrdinalT;
  using offset_type = OffsetT;
  using device_type = DeviceT;
  using execution_space = typename DeviceT::execution_space;
  using memory_space = typename DeviceT::memory_space;
  using row_map_type = Kokkos::View<OffsetT*, DeviceT>;
  using entries_type = Kokkos::View<OrdinalT*, DeviceT>;

  static_assert(std::is_integral<OrdinalT>::value && std::is_signed<OrdinalT>::value,
                "CrsGraph: Ordinal must be a signed integer type");
  static_assert(std::is_integral<OffsetT>::value, "CrsGraph: Offset must be an integer type");

  CrsGraph() = default;

  /// Wraps existing views (no copy). Shapes are checked here; contents by validate_crs().
  CrsGraph(OrdinalT num_rows, OrdinalT num_cols, row_map_type row_map, entries_type entries)
      : num_rows_(num_rows), num_cols_(num_cols), row_map_(row_map), entries_(entries) {
    KELP_REQUIRE(num_rows >= 0 && num_cols >= 0, InvalidArgument,
                 "kelp::CrsGraph: negative dimensions " << num_rows << " x " << num_cols);
    KELP_REQUIRE(row_map.extent(0) == static_cast<std::size_t>(num_rows) + 1, DimensionMismatch,
                 "kelp::CrsGraph: row_map has " << row_map.extent(0) << " entries, expected "
                                                << num_rows + 1 << " (num_rows + 1)");
  }

  KOKKOS_INLINE_FUNCTION OrdinalT num_rows() const { return num_rows_; }
  KOKKOS_INLINE_FUNCTION OrdinalT num_cols() const { return num_cols_; }
  KOKKOS_INLINE_FUNCTION OffsetT nnz() const { return static_cast<OffsetT>(entries_.extent(0)); }
  const row_map_type& row_map() const { return row_map_; }
  const entries_type& entries() const { return entries_; }

 private:
  OrdinalT num_rows_ = 0;
  OrdinalT num_cols_ = 0;
  row_map_type row_map_ = row_map_type("kelp::CrsGraph::row_map", 1);
  entries_type entries_;
};

/// Sparse matrix in CRS form over Kokkos views.
///
/// Scalar: float, double or Kokkos::complex<double> (all instantiated and tested).
/// Copying a CrsMatrix is shallow (views are reference counted), as for Kokkos views.
template <class ScalarT, class OrdinalT = Ordinal, class OffsetT = Offset,
          class DeviceT = DefaultDevice>
class CrsMatrix {
 public:
  using scalar_type = ScalarT;
  using ordinal_type = OrdinalT;
  using offset_type = OffsetT;
  using device_type = DeviceT;
  using execution_space = typename DeviceT::execution_space;
  using memory_space = typename DeviceT::memory_space;
  using graph_type = CrsGraph<OrdinalT, OffsetT, DeviceT>;
  using row_map_type = typename graph_type::row_map_type;
  using entries_type = typename graph_type::entries_type;
  using values_type = Kokkos::View<ScalarT*, DeviceT>;
  using host_mirror_type = CrsMatrix<ScalarT, OrdinalT, OffsetT, HostDevice>;

  CrsMatrix() = default;

  /// Wraps a graph and its values (no copy); values must have one entry per graph entry.
  CrsMatrix(graph_type graph, values_type values) : graph_(graph), values_(values) {
    KELP_REQUIRE(values.extent(0) == graph.entries().extent(0), DimensionMismatch,
                 "kelp::CrsMatrix: values has " << values.extent(0) << " entries, entries has "
                                                << graph.entries().extent(0));
  }

  CrsMatrix(OrdinalT num_rows, OrdinalT num_cols, row_map_type row_map, entries_type entries,
            values_type values)
      : CrsMatrix(graph_type(num_rows, num_cols, row_map, entries), values) {}

  KOKKOS_INLINE_FUNCTION OrdinalT num_rows() const { return graph_.num_rows(); }
  KOKKOS_INLINE_FUNCTION OrdinalT num_cols() const { return graph_.num_cols(); }
  KOKKOS_INLINE_FUNCTION OffsetT nnz() const { return graph_.nnz(); }
  const graph_type& graph() const { return graph_; }
  const row_map_type& row_map() const { return graph_.row_map(); }
  const entries_type& entries() const { return graph_.entries(); }
  const values_type& values() const { return values_; }

  /// Whether this matrix carries a structured-grid stencil description (see
  /// stencil_description.hpp): set by the kelp::generators stencil generators and kept by
  /// copy_to / to_host, which keep the pattern. Matrices made by the constructors (hence every
  /// operation that builds a new pattern) carry none. Values may change freely; who changes
  /// row_map or entries in place must call detach_stencil().
  bool has_stencil() const { return !stencil_.empty(); }
  const StencilDescription& stencil() const { return stencil_; }

  /// Attaches `stencil` after checking, in O(nnz) on the host (the pattern is copied there when
  /// it lives on a device), that the pattern is exactly the stencil's.
  /// @throws InvalidArgument naming the first row and entry that differ (or what is wrong with
  ///         the description), DimensionMismatch when the grid has another number of points
  void attach_stencil(const StencilDescription& stencil) {
    auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph_.row_map());
    auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), graph_.entries());
    impl::check_stencil_pattern(stencil, num_rows(), num_cols(), row_map, entries,
                                "kelp::CrsMatrix::attach_stencil");
    stencil_ = stencil;
  }
  /// Drops the description (no-op without one).
  void detach_stencil() { stencil_ = StencilDescription(); }

 private:
  friend struct impl::StencilTransfer;
  graph_type graph_;
  values_type values_;
  StencilDescription stencil_;
};

namespace impl {
struct StencilTransfer {
  template <class To, class From>
  static void copy(To& to, const From& from) {
    to.stencil_ = from.stencil();
  }
};
}  // namespace impl

/// Deep copy of A into the memory space of Device (a shallow copy when A already lives there),
/// with A's stencil description if it has one.
template <class Device, class Scalar, class OrdinalT, class OffsetT, class SrcDevice>
CrsMatrix<Scalar, OrdinalT, OffsetT, Device> copy_to(
    const CrsMatrix<Scalar, OrdinalT, OffsetT, SrcDevice>& A) {
  using Target = CrsMatrix<Scalar, OrdinalT, OffsetT, Device>;
  auto row_map = Kokkos::create_mirror_view_and_copy(typename Device::memory_space(), A.row_map());
  auto entries = Kokkos::create_mirror_view_and_copy(typename Device::memory_space(), A.entries());
  auto values = Kokkos::create_mirror_view_and_copy(typename Device::memory_space(), A.values());
  Target copy(A.num_rows(), A.num_cols(), typename Target::row_map_type(row_map),
              typename Target::entries_type(entries), typename Target::values_type(values));
  impl::StencilTransfer::copy(copy, A);  // same pattern
  return copy;
}

/// Host mirror of A (shallow when A is already in host memory), for host-side logic and I/O.
template <class Scalar, class OrdinalT, class OffsetT, class Device>
CrsMatrix<Scalar, OrdinalT, OffsetT, HostDevice> to_host(
    const CrsMatrix<Scalar, OrdinalT, OffsetT, Device>& A) {
  return copy_to<HostDevice>(A);
}

}  // namespace kelp

#pragma once
/// A CrsMatrix over a host code's own CSR arrays: no copy, no ownership.
///
/// A PDE code that already stores its matrix in CSR form (row offsets, column indices, values)
/// hands Kelp its three pointers; Kelp wraps them in unmanaged Kokkos views, so the code keeps
/// writing values into its own array and Kelp sees them (call setup_numeric on a preconditioner
/// after a values-only change). 32-bit row offsets (OffsetT = int) are accepted: every kernel,
/// MatrixOperator, Jacobi and Cg take CrsMatrix<Scalar, int, int>; such types are compiled where
/// used (they are not among the library's precompiled standard types).
///
/// Example (host arrays on a host build; on a GPU build pass device pointers, or wrap host
/// arrays with Device = kelp::HostDevice and copy_to<kelp::DefaultDevice>):
///   std::vector<int> row_map = {0, 2, 3};  std::vector<int> entries = {0, 1, 1};
///   std::vector<double> values = {4, -1, 4};
///   auto A = kelp::wrap_crs(2, 2, row_map.data(), entries.data(), values.data());
///   values[0] = 5;   // A sees it: A.values().data() == values.data()

#include <type_traits>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/crs_validate.hpp"

namespace kelp {

/// How much of the caller's arrays wrap_crs checks (validate_crs), before anything reads them.
enum class WrapCheck {
  automatic,      ///< structure when Device's memory is host-accessible (O(nnz) reads, no copy);
                  ///< none otherwise, where a check would copy the pattern to the host
  none,           ///< trust the caller
  structure,      ///< CrsCheck::structure (copies the pattern to the host on device spaces)
  sorted_unique,  ///< CrsCheck::sorted_unique: rows sorted with unique columns
};

/// Wraps caller-owned CSR arrays as a CrsMatrix without copying them.
///
/// Row i holds entries k in [row_map[i], row_map[i+1]): column entries[k], value values[k].
/// @param[in] num_rows, num_cols  matrix shape (>= 0)
/// @param[in] row_map             num_rows + 1 offsets, row_map[0] == 0, nnz = row_map[num_rows]
/// @param[in] entries             nnz column indices in [0, num_cols) (may be null when nnz == 0)
/// @param[in] values              nnz values (may be null when nnz == 0)
/// @param[in] check               validation of the arrays (see WrapCheck; on by default on host
///                                memory spaces)
/// Preconditions: all three pointers address memory of Device's memory space (device pointers
/// for a CUDA Device; this cannot be checked here) and stay valid, with the same pattern, for
/// as long as the matrix or anything built from it (operators, preconditioners, solvers, handles)
/// is used. The views are unmanaged: Kelp never copies, resizes or frees the arrays. Values may
/// change at any time between Kelp calls.
/// @throws InvalidArgument for negative sizes, a null row_map, or (when checked) bad contents
template <class Scalar, class OffsetT, class OrdinalT = Ordinal, class Device = DefaultDevice>
CrsMatrix<Scalar, OrdinalT, OffsetT, Device> wrap_crs(OrdinalT num_rows, OrdinalT num_cols,
                                                      OffsetT* row_map, OrdinalT* entries,
                                                      Scalar* values,
                                                      WrapCheck check = WrapCheck::automatic) {
  using Matrix = CrsMatrix<Scalar, OrdinalT, OffsetT, Device>;
  KELP_REQUIRE(num_rows >= 0 && num_cols >= 0, InvalidArgument,
               "kelp::wrap_crs: negative dimensions " << num_rows << " x " << num_cols);
  KELP_REQUIRE(row_map != nullptr, InvalidArgument,
               "kelp::wrap_crs: row_map is null; expected num_rows + 1 = " << num_rows + 1
                                                                           << " offsets");
  // Views built from a pointer are unmanaged: no reference count, no deallocation.
  typename Matrix::row_map_type row_map_view(row_map, static_cast<std::size_t>(num_rows) + 1);
  OffsetT nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(row_map_view, num_rows));  // one scalar, not the array
  if constexpr (std::is_signed<OffsetT>::value) {
    KELP_REQUIRE(nnz >= 0, InvalidArgument,
                 "kelp::wrap_crs: row_map[" << num_rows << "] = " << nnz << " < 0");
  }
  KELP_REQUIRE(nnz == 0 || (entries != nullptr && values != nullptr), InvalidArgument,
               "kelp::wrap_crs: nnz = " << nnz << " but entries or values is null");
  typename Matrix::entries_type entries_view(entries, static_cast<std::size_t>(nnz));
  typename Matrix::values_type values_view(values, static_cast<std::size_t>(nnz));
  Matrix A(num_rows, num_cols, row_map_view, entries_view, values_view);

  constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Device::memory_space>::accessible;
  if (check == WrapCheck::automatic) {
    check = host_accessible ? WrapCheck::structure : WrapCheck::none;
  }
  if (check == WrapCheck::structure) validate_crs(A, CrsCheck::structure);
  if (check == WrapCheck::sorted_unique) validate_crs(A, CrsCheck::sorted_unique);
  return A;
}

}  // namespace kelp

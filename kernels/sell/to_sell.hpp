#pragma once
/// Conversion between CRS and SELL-C-sigma (kernels/sell/sell_matrix.hpp).
///
///   auto S = kernels::to_sell(A, {32, 256});   // SELL-32-256 of the CrsMatrix A
///   S.chunk_occupancy();                         // beta = nnz / stored entries
///   auto B = kernels::to_crs(S);                 // A again (rows in their original order)

#include <algorithm>
#include <numeric>
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/sell/sell_matrix.hpp"

namespace kelp::kernels {

namespace impl {

/// Row lengths of a CRS matrix, on its device.
template <class Matrix>
struct CrsRowLengths {
  typename Matrix::row_map_type row_map;
  Kokkos::View<typename Matrix::ordinal_type*, typename Matrix::device_type> lengths;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Matrix::ordinal_type i) const {
    lengths(i) = static_cast<typename Matrix::ordinal_type>(row_map(i + 1) - row_map(i));
  }
};

/// Copies sorted row s (one lane of a chunk) into the SELL arrays, padding included; lanes past
/// num_rows are all padding (value 0, column 0).
template <class Matrix, class Sell>
struct FillSellLane {
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  using Scalar = typename Matrix::scalar_type;
  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type crs_entries;
  typename Matrix::values_type crs_values;
  typename Sell::offsets_type chunk_offsets;
  typename Sell::ordinals_type chunk_lengths;
  typename Sell::ordinals_type permutation;
  typename Sell::ordinals_type entries;
  typename Sell::values_type values;
  Ordinal num_rows;
  int C;

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal s) const {
    const Ordinal c = s / C, r = s % C;
    const Offset base = chunk_offsets(c) + r;
    const Ordinal width = chunk_lengths(c);
    Offset begin = 0;
    Ordinal length = 0;
    if (s < num_rows) {
      begin = row_map(permutation(s));
      length = static_cast<Ordinal>(row_map(permutation(s) + 1) - begin);
    }
    // Padding repeats the row's last column: a valid index into x whose line is already loaded.
    const Ordinal pad_column = length > 0 ? crs_entries(begin + length - 1) : Ordinal(0);
    for (Ordinal j = 0; j < width; ++j) {
      const Offset k = base + static_cast<Offset>(j) * C;
      if (j < length) {
        entries(k) = crs_entries(begin + j);
        values(k) = crs_values(begin + j);
      } else {
        entries(k) = pad_column;
        values(k) = Scalar(0);
      }
    }
  }
};

}  // namespace impl

/// SELL-C-sigma copy of the CRS matrix A, in A's memory space.
///
/// Row lengths and the copy of the entries run on A's device; the sort of each window of sigma
/// rows by decreasing length (stable, so equal lengths keep their order) and the chunk offsets
/// are computed on a host mirror of the row lengths (O(num_rows log sigma), 4 bytes per row each
/// way). Columns keep their order inside each row.
/// @param[in] A      any CRS matrix (unsorted rows, empty rows, 0 x 0 allowed)
/// @param[in] shape  C and sigma (check_sell_shape)
/// @throws InvalidArgument for a bad shape
template <class Scalar, class OrdinalT, class OffsetT, class Device>
SellMatrix<Scalar, OrdinalT, OffsetT, Device> to_sell(const CrsMatrix<Scalar, OrdinalT, OffsetT, Device>& A,
                                                     SellShape shape = {}) {
  check_sell_shape(shape, "kelp::kernels::to_sell");
  using Matrix = CrsMatrix<Scalar, OrdinalT, OffsetT, Device>;
  using Sell = SellMatrix<Scalar, OrdinalT, OffsetT, Device>;
  using Exec = typename Device::execution_space;
  const OrdinalT n = A.num_rows();
  const int C = shape.C;
  const OrdinalT num_chunks = static_cast<OrdinalT>((static_cast<long long>(n) + C - 1) / C);
  const long long padded_rows = static_cast<long long>(num_chunks) * C;

  typename Sell::ordinals_type lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::SellMatrix::crs_lengths"), n);
  Kokkos::parallel_for("kelp::kernels::to_sell(lengths)", Kokkos::RangePolicy<Exec>(0, n),
                       impl::CrsRowLengths<Matrix>{A.row_map(), lengths});
  auto lengths_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lengths);

  // Sort each window of sigma rows by decreasing length.
  auto permutation_h = Kokkos::View<OrdinalT*, Kokkos::HostSpace>("kelp::SellMatrix::permutation", n);
  std::iota(permutation_h.data(), permutation_h.data() + n, OrdinalT(0));
  if (shape.sigma > 1) {
    for (long long w = 0; w < n; w += shape.sigma) {
      OrdinalT* first = permutation_h.data() + w;
      OrdinalT* last = permutation_h.data() + std::min<long long>(n, w + shape.sigma);
      std::stable_sort(first, last, [&](OrdinalT a, OrdinalT b) { return lengths_h(a) > lengths_h(b); });
    }
  }
  auto row_lengths_h = Kokkos::View<OrdinalT*, Kokkos::HostSpace>("kelp::SellMatrix::row_lengths", padded_rows);
  auto chunk_lengths_h = Kokkos::View<OrdinalT*, Kokkos::HostSpace>("kelp::SellMatrix::chunk_lengths", num_chunks);
  auto chunk_offsets_h = Kokkos::View<OffsetT*, Kokkos::HostSpace>("kelp::SellMatrix::chunk_offsets", num_chunks + 1);
  OffsetT nnz = 0;
  for (OrdinalT s = 0; s < n; ++s) {
    row_lengths_h(s) = lengths_h(permutation_h(s));
    nnz += row_lengths_h(s);
  }
  for (OrdinalT c = 0; c < num_chunks; ++c) {
    OrdinalT width = 0;
    for (int r = 0; r < C; ++r) width = std::max(width, row_lengths_h(static_cast<long long>(c) * C + r));
    chunk_lengths_h(c) = width;
    chunk_offsets_h(c + 1) = chunk_offsets_h(c) + static_cast<OffsetT>(width) * C;
  }

  typename Sell::ordinals_type permutation("kelp::SellMatrix::permutation", n);
  typename Sell::ordinals_type row_lengths("kelp::SellMatrix::row_lengths", padded_rows);
  typename Sell::ordinals_type chunk_lengths("kelp::SellMatrix::chunk_lengths", num_chunks);
  typename Sell::offsets_type chunk_offsets("kelp::SellMatrix::chunk_offsets", num_chunks + 1);
  Kokkos::deep_copy(permutation, permutation_h);
  Kokkos::deep_copy(row_lengths, row_lengths_h);
  Kokkos::deep_copy(chunk_lengths, chunk_lengths_h);
  Kokkos::deep_copy(chunk_offsets, chunk_offsets_h);

  const OffsetT stored = chunk_offsets_h(num_chunks);
  typename Sell::ordinals_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::SellMatrix::entries"), stored);
  typename Sell::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::SellMatrix::values"), stored);
  Kokkos::parallel_for("kelp::kernels::to_sell(fill)", Kokkos::RangePolicy<Exec>(0, static_cast<OrdinalT>(padded_rows)),
                       impl::FillSellLane<Matrix, Sell>{A.row_map(), A.entries(), A.values(), chunk_offsets,
                                                        chunk_lengths, permutation, entries, values, n, C});
  Kokkos::fence();
  return Sell(n, A.num_cols(), nnz, shape, chunk_offsets, chunk_lengths, row_lengths, permutation,
              entries, values);
}

/// The CRS matrix a SELL matrix was built from: rows in their original order, padding dropped
/// (on the host from mirrors, then copied to S's memory space; for tests and export, not for
/// loops).
template <class Scalar, class OrdinalT, class OffsetT, class Device>
CrsMatrix<Scalar, OrdinalT, OffsetT, Device> to_crs(const SellMatrix<Scalar, OrdinalT, OffsetT, Device>& S) {
  using Crs = CrsMatrix<Scalar, OrdinalT, OffsetT, Device>;
  const OrdinalT n = S.num_rows();
  const int C = S.shape().C;
  auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S.chunk_offsets());
  auto lengths = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S.row_lengths());
  auto permutation = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S.permutation());
  auto sell_entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S.entries());
  auto sell_values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S.values());

  auto row_map_h = Kokkos::View<OffsetT*, Kokkos::HostSpace>("kelp::CrsMatrix::row_map", n + 1);
  for (OrdinalT s = 0; s < n; ++s) row_map_h(permutation(s) + 1) = lengths(s);
  for (OrdinalT i = 0; i < n; ++i) row_map_h(i + 1) += row_map_h(i);
  const OffsetT nnz = row_map_h(n);
  auto entries_h = Kokkos::View<OrdinalT*, Kokkos::HostSpace>("kelp::CrsMatrix::entries", nnz);
  auto values_h = Kokkos::View<Scalar*, Kokkos::HostSpace>("kelp::CrsMatrix::values", nnz);
  for (OrdinalT s = 0; s < n; ++s) {
    const OffsetT out = row_map_h(permutation(s));
    const OffsetT base = offsets(s / C) + s % C;
    for (OrdinalT j = 0; j < lengths(s); ++j) {
      entries_h(out + j) = sell_entries(base + static_cast<OffsetT>(j) * C);
      values_h(out + j) = sell_values(base + static_cast<OffsetT>(j) * C);
    }
  }
  typename Crs::row_map_type row_map("kelp::CrsMatrix::row_map", n + 1);
  typename Crs::entries_type entries("kelp::CrsMatrix::entries", nnz);
  typename Crs::values_type values("kelp::CrsMatrix::values", nnz);
  Kokkos::deep_copy(row_map, row_map_h);
  Kokkos::deep_copy(entries, entries_h);
  Kokkos::deep_copy(values, values_h);
  return Crs(n, S.num_cols(), row_map, entries, values);
}

// Compiled once for the standard types, in kernels/sell/eti/.
#define KELP_TO_SELL_ETI(PREFIX, S)                                                     \
  PREFIX template SellMatrix<S> to_sell(const CrsMatrix<S>&, SellShape);                \
  PREFIX template CrsMatrix<S> to_crs(const SellMatrix<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_TO_SELL_ETI, extern)

}  // namespace kelp::kernels

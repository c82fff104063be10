#pragma once
/// The Hermitian check of a matrix given as each rank's rows (LocalRows), without gathering it:
/// every rank sends each of its entries a(i, j) to the owner of row j as the conjugate transposed
/// entry (j, i, conj(a_ij)) (one all-to-all), so each rank holds its rows of H^H and compares
/// them with its rows of H. The test and the message of an entry are the serial
/// check_hermitian's (solvers/kpm/impl/kpm_hermitian_entry.hpp): for any partition in the
/// original row order (rows balanced, before a renumbering) every rank throws the error of the
/// serially first offending entry, with its original indices. Host code; memory O(local nnz).
///
/// Example:
///   auto rows = dist::read_matrix_market<double>(path, comm);
///   dist::check_hermitian(comm, rows, 1e-12);   // collective; throws on every rank alike

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/local_rows.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/kpm/impl/kpm_hermitian_entry.hpp"

namespace kelp::dist {

namespace impl {

/// One entry of a row of H^H: (row, col, value) with value = conj(a(col, row)).
template <class Scalar>
struct TransposedEntry {
  GlobalOrdinal row = 0;
  GlobalOrdinal col = 0;
  Scalar value{};
};

/// This rank's rows of H^H from every rank's rows of H (collective: MPI_Alltoall of the counts,
/// MPI_Alltoallv of indices and values), sorted by (row, col), duplicates summed.
template <class Scalar>
std::vector<TransposedEntry<Scalar>> conjugate_transpose_rows(MPI_Comm comm, const LocalRows<Scalar>& rows) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::vector<TransposedEntry<Scalar>>> to(static_cast<std::size_t>(size));
  // Local work that may fail (memory) first, so that no rank is left waiting in the all-to-all.
  collective_try(comm, "kelp::dist::check_hermitian", [&] {
    const GlobalOrdinal first = rows.rows.begin(rank);
    for (std::int64_t i = 0; i < rows.num_local_rows(); ++i) {
      for (auto k = rows.row_map[static_cast<std::size_t>(i)]; k < rows.row_map[static_cast<std::size_t>(i) + 1]; ++k) {
        const GlobalOrdinal j = rows.col_index[static_cast<std::size_t>(k)];
        to[static_cast<std::size_t>(rows.rows.owner(j))].push_back(
            {j, first + i, ScalarTraits<Scalar>::conj(rows.values[static_cast<std::size_t>(k)])});
      }
    }
  });
  // Entries travel as bytes (Scalar may be complex); the counts are checked to fit an int.
  constexpr long long entry_bytes = sizeof(TransposedEntry<Scalar>);
  std::vector<int> send_counts(static_cast<std::size_t>(size)), send_offsets(static_cast<std::size_t>(size) + 1, 0);
  long long total = 0;
  for (int r = 0; r < size; ++r) total += static_cast<long long>(to[static_cast<std::size_t>(r)].size()) * entry_bytes;
  KELP_DIST_REQUIRE_ALL(comm, total <= INT_MAX, InvalidArgument, "kelp::dist::check_hermitian",
                        "this rank's entries take " << total << " bytes, more than one message holds ("
                                                    << INT_MAX << "); use more ranks");
  std::vector<TransposedEntry<Scalar>> send;
  send.reserve(static_cast<std::size_t>(total / entry_bytes));
  for (int r = 0; r < size; ++r) {
    const auto& part = to[static_cast<std::size_t>(r)];
    send.insert(send.end(), part.begin(), part.end());
    send_counts[static_cast<std::size_t>(r)] = static_cast<int>(part.size() * entry_bytes);
    send_offsets[static_cast<std::size_t>(r) + 1] = send_offsets[static_cast<std::size_t>(r)] + send_counts[static_cast<std::size_t>(r)];
  }
  std::vector<int> receive_counts(static_cast<std::size_t>(size)), receive_offsets(static_cast<std::size_t>(size) + 1, 0);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm);
  long long received_bytes = 0;
  for (int r = 0; r < size; ++r) received_bytes += receive_counts[static_cast<std::size_t>(r)];
  KELP_DIST_REQUIRE_ALL(comm, received_bytes <= INT_MAX, InvalidArgument, "kelp::dist::check_hermitian",
                        "this rank receives " << received_bytes << " bytes of transposed entries, more than one "
                                              << "message holds (" << INT_MAX << "); use more ranks");
  for (int r = 0; r < size; ++r) {
    receive_offsets[static_cast<std::size_t>(r) + 1] =
        receive_offsets[static_cast<std::size_t>(r)] + receive_counts[static_cast<std::size_t>(r)];
  }
  std::vector<TransposedEntry<Scalar>> received(static_cast<std::size_t>(received_bytes / entry_bytes));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, received.data(),
                receive_counts.data(), receive_offsets.data(), MPI_BYTE, comm);
  std::sort(received.begin(), received.end(), [](const auto& a, const auto& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  std::vector<TransposedEntry<Scalar>> merged;  // duplicates summed, as the serial check's lookup
  for (const auto& e : received) {
    if (!merged.empty() && merged.back().row == e.row && merged.back().col == e.col) {
      merged.back().value += e.value;
    } else {
      merged.push_back(e);
    }
  }
  return merged;
}

/// The value of (row, col) in the sorted entries (conj(0) when missing).
template <class Scalar>
Scalar value_at(const std::vector<TransposedEntry<Scalar>>& sorted, GlobalOrdinal row, GlobalOrdinal col) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), std::make_pair(row, col),
                                   [](const TransposedEntry<Scalar>& e, const std::pair<GlobalOrdinal, GlobalOrdinal>& p) {
                                     return e.row != p.first ? e.row < p.first : e.col < p.second;
                                   });
  // A missing entry is conj(0), as the serial check forms it (a complex one prints as (0, -0)).
  return it != sorted.end() && it->row == row && it->col == col ? it->value : ScalarTraits<Scalar>::conj(Scalar(0));
}

}  // namespace impl

/// Throws InvalidArgument on every rank (the message of the lowest failing rank, "rank r: "
/// prefixed) when the square matrix whose rows the ranks hold is not Hermitian: the first
/// offending entry of that rank's rows, by row and then column, a(i, j) vs conj(a(j, i)) (a
/// missing entry counts as 0; a diagonal entry with an imaginary part offends too), or an entry
/// too large for double arithmetic. Tolerance: relative_tolerance times the largest |a_ij| of
/// the whole matrix (the serial check_hermitian's). Collective; no rank is left waiting.
template <class Scalar>
void check_hermitian(MPI_Comm comm, const LocalRows<Scalar>& rows, double relative_tolerance) {
  constexpr const char* where = "kelp::dist::check_hermitian";
  KELP_DIST_REQUIRE_ALL(comm, rows.global_rows == rows.global_cols, InvalidArgument, where,
                        "H is " << rows.global_rows << " x " << rows.global_cols << ", expected square");
  using T = ScalarTraits<Scalar>;
  double largest = 0;
  for (const Scalar& v : rows.values) largest = std::max(largest, static_cast<double>(T::abs(v)));
  MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, comm);
  const double tolerance = relative_tolerance * largest;
  const std::vector<impl::TransposedEntry<Scalar>> transposed = impl::conjugate_transpose_rows(comm, rows);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const GlobalOrdinal first = rows.rows.begin(rank);
  collective_try(comm, where, [&] {
    std::vector<std::pair<GlobalOrdinal, Scalar>> row;  // the serial order: by column
    for (std::int64_t i = 0; i < rows.num_local_rows(); ++i) {
      row.clear();
      for (auto k = rows.row_map[static_cast<std::size_t>(i)]; k < rows.row_map[static_cast<std::size_t>(i) + 1]; ++k) {
        row.emplace_back(rows.col_index[static_cast<std::size_t>(k)], rows.values[static_cast<std::size_t>(k)]);
      }
      std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t k = 0; k < row.size(); ++k) {  // LocalRows holds no duplicates
        solvers::impl::require_hermitian_entry(where, first + i, row[k].first, row[k].second,
                                               impl::value_at(transposed, first + i, row[k].first), largest,
                                               tolerance);
      }
    }
  });
}

}  // namespace kelp::dist

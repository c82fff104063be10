#pragma once
/// Partitioning of distributed rows, applied by renumbering so that every rank's rows stay a
/// contiguous range (see local_rows.hpp):
///
///   - balanced_by_nonzeros: contiguous rows, each rank about nnz / p entries (within one row's
///     length), from the distributed row lengths; redistribute() moves the rows there.
///   - partition_metis: METIS k-way partition of the symmetrised graph of a square matrix; the
///     parts become contiguous ranges through the permutation new_of_old (rows of part 0 first,
///     each part in its original order). renumber() applies it to the matrix (P A P^T),
///     to_new_numbering / to_original_numbering to vectors (b in, x back out).
///
/// Limit: METIS runs serially on rank 0 on the whole pattern (gathered there: 8 bytes per
/// entry plus the symmetrised graph, ~8 bytes per entry twice in 32-bit METIS indices), and every
/// rank keeps the global permutation (8 bytes per row). Fine to ~10^8 entries; ParMETIS would be
/// the next step beyond.
///
/// Example:
///   auto A = dist::read_matrix_market<double>(path, comm);
///   auto parts = dist::partition_metis(comm, A);
///   auto B = dist::renumber(comm, A, parts);                          // P A P^T
///   auto b_new = dist::to_new_numbering(comm, b, A.rows, parts);      // P b
///   ... solve B x_new = b_new ...
///   auto x = dist::to_original_numbering(comm, x_new, parts, A.rows); // P^T x_new
///
/// Reference: G. Karypis, V. Kumar, "A fast and high quality multilevel scheme for partitioning
/// irregular graphs", SIAM J. Sci. Comput. 20(1), 1998 (METIS 5 k-way).

#include <metis.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/exchange.hpp"
#include "kelp/distributed/local_rows.hpp"

namespace kelp::dist {

/// Contiguous rows with about nnz / p entries per rank: offsets[k] is the first row whose
/// preceding rows hold at least k nnz / p entries, so each rank's entry count differs from
/// nnz / p by less than the longest row. All rows empty: balanced by rows.
/// Collective; cost O(local rows) plus one MPI_Exscan and two MPI_Allreduce (p - 1 values).
/// @param[in] A  this rank's rows under any partition A.rows (the same on every rank)
template <class Scalar>
RowPartition balanced_by_nonzeros(MPI_Comm comm, const LocalRows<Scalar>& A) {
  constexpr const char* function = "kelp::dist::balanced_by_nonzeros";
  const int rank = impl::comm_rank(comm), size = impl::comm_size(comm);
  KELP_DIST_REQUIRE_ALL(comm, A.rows.num_ranks() == size && A.num_local_rows() == A.rows.size(rank),
                        InvalidArgument, function,
                        "A.rows spans " << A.rows.num_ranks() << " ranks and gives this rank "
                                        << A.rows.size(rank) << " rows; it holds " << A.num_local_rows()
                                        << " rows on a communicator of " << size);
  const GlobalOrdinal n = A.rows.global_size();
  std::int64_t local = A.num_local_entries(), before = 0, total = 0;
  MPI_Exscan(&local, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's result undefined
  MPI_Allreduce(&local, &total, 1, MPI_INT64_T, MPI_SUM, comm);
  if (total == 0) return RowPartition::balanced(n, size);

  // Boundary k: the smallest row i with prefix(i) * p >= k * total (prefix: entries before row
  // i); prefix is nondecreasing, so the minimum over the ranks' local candidates is global.
  std::vector<GlobalOrdinal> candidates(static_cast<std::size_t>(size) > 1 ? size - 1 : 0, n);
  const GlobalOrdinal first = A.rows.begin(rank);
  for (int k = 1; k < size; ++k) {
    const std::int64_t target = static_cast<std::int64_t>(k) * total;
    // row_map holds this rank's prefix sums: a binary search, O(p log(local rows)) in all.
    const auto it = std::partition_point(A.row_map.begin(), A.row_map.end(),
                                         [&](std::int64_t prefix) { return (before + prefix) * size < target; });
    if (it != A.row_map.end()) candidates[static_cast<std::size_t>(k) - 1] = first + (it - A.row_map.begin());
  }
  std::vector<GlobalOrdinal> boundaries(candidates.size());
  MPI_Allreduce(candidates.data(), boundaries.data(), static_cast<int>(candidates.size()), MPI_INT64_T, MPI_MIN,
                comm);
  RowPartition result;
  result.offsets.assign(static_cast<std::size_t>(size) + 1, 0);
  for (int k = 1; k < size; ++k) result.offsets[static_cast<std::size_t>(k)] = boundaries[static_cast<std::size_t>(k) - 1];
  result.offsets.back() = n;
  return result;
}

/// Moves rows to their owners under `new_rows` (same numbering; columns distributed by
/// `new_cols`). Rows keep their entries in order. Collective; one MPI_Alltoallv.
template <class Scalar>
LocalRows<Scalar> redistribute(MPI_Comm comm, const LocalRows<Scalar>& A, const RowPartition& new_rows,
                               const RowPartition& new_cols) {
  constexpr const char* function = "kelp::dist::redistribute";
  const int rank = impl::comm_rank(comm), size = impl::comm_size(comm);
  KELP_DIST_REQUIRE_ALL(comm,
                        new_rows.num_ranks() == size && new_cols.num_ranks() == size &&
                            new_rows.global_size() == A.global_rows && new_cols.global_size() == A.global_cols,
                        InvalidArgument, function,
                        "the new partitions cover " << new_rows.global_size() << " rows and "
                                                    << new_cols.global_size() << " columns over "
                                                    << new_rows.num_ranks() << " ranks; A is " << A.global_rows
                                                    << " x " << A.global_cols << " on " << size << " ranks");
  std::vector<impl::Triplet<Scalar>> triplets;
  triplets.reserve(A.col_index.size());
  const GlobalOrdinal first = A.rows.begin(rank);
  for (std::int64_t i = 0; i < A.num_local_rows(); ++i) {
    for (auto k = A.row_map[static_cast<std::size_t>(i)]; k < A.row_map[static_cast<std::size_t>(i) + 1]; ++k) {
      triplets.push_back({first + i, A.col_index[static_cast<std::size_t>(k)], A.values[static_cast<std::size_t>(k)]});
    }
  }
  return impl::assemble_local_rows(new_rows, new_cols, rank, impl::send_to_row_owners(comm, new_rows, triplets));
}

/// A graph partition applied by renumbering: part r gets the contiguous new rows
/// rows.begin(r) .. rows.end(r); original row i becomes new row new_of_old[i].
struct GraphPartition {
  RowPartition rows;                     ///< ownership in the new numbering
  std::vector<GlobalOrdinal> new_of_old;  ///< a permutation of 0 .. n-1, the same on every rank
  std::int64_t edge_cut = 0;             ///< edges of the symmetrised graph between parts (METIS's)
};

namespace impl {

/// The symmetrised graph of a square pattern without self loops (METIS's input), CSR in idx_t.
struct MetisGraph {
  std::vector<idx_t> xadj{0};
  std::vector<idx_t> adjncy;
  std::vector<idx_t> weights;  ///< vertex weight: entries of the row, at least 1
};

inline MetisGraph symmetrised_graph(GlobalOrdinal n, const std::vector<std::int64_t>& row_map,
                                    const std::vector<GlobalOrdinal>& col_index) {
  std::vector<std::int64_t> degree(static_cast<std::size_t>(n) + 1, 0);
  for (GlobalOrdinal i = 0; i < n; ++i) {
    for (auto k = row_map[i]; k < row_map[i + 1]; ++k) {
      const GlobalOrdinal j = col_index[static_cast<std::size_t>(k)];
      if (j == i) continue;
      ++degree[static_cast<std::size_t>(i) + 1];
      ++degree[static_cast<std::size_t>(j) + 1];
    }
  }
  std::partial_sum(degree.begin(), degree.end(), degree.begin());
  std::vector<idx_t> both(static_cast<std::size_t>(degree.back()));
  {
    std::vector<std::int64_t> next(degree.begin(), degree.end() - 1);
    for (GlobalOrdinal i = 0; i < n; ++i) {
      for (auto k = row_map[i]; k < row_map[i + 1]; ++k) {
        const GlobalOrdinal j = col_index[static_cast<std::size_t>(k)];
        if (j == i) continue;
        both[static_cast<std::size_t>(next[i]++)] = static_cast<idx_t>(j);
        both[static_cast<std::size_t>(next[j]++)] = static_cast<idx_t>(i);
      }
    }
  }
  MetisGraph graph;
  graph.xadj.assign(static_cast<std::size_t>(n) + 1, 0);
  graph.adjncy.reserve(both.size());
  graph.weights.resize(static_cast<std::size_t>(n));
  for (GlobalOrdinal i = 0; i < n; ++i) {
    auto first = both.begin() + degree[i], last = both.begin() + degree[i + 1];
    std::sort(first, last);
    graph.adjncy.insert(graph.adjncy.end(), first, std::unique(first, last));  // a_ij and a_ji: one edge
    graph.xadj[static_cast<std::size_t>(i) + 1] = static_cast<idx_t>(graph.adjncy.size());
    graph.weights[static_cast<std::size_t>(i)] = static_cast<idx_t>(std::max<std::int64_t>(row_map[i + 1] - row_map[i], 1));
  }
  return graph;
}

/// Part of each row (rank 0 only): METIS k-way, or the trivial answers METIS is not needed for.
inline std::vector<idx_t> metis_parts(GlobalOrdinal n, int parts, const std::vector<std::int64_t>& row_map,
                                      const std::vector<GlobalOrdinal>& col_index, std::int64_t& edge_cut) {
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  edge_cut = 0;
  if (parts == 1 || n == 0) return part;
  if (n <= parts) {  // one row per part, the rest empty
    for (GlobalOrdinal i = 0; i < n; ++i) part[static_cast<std::size_t>(i)] = static_cast<idx_t>(i);
    parts = 0;
  }
  MetisGraph graph = symmetrised_graph(n, row_map, col_index);
  if (parts > 0 && graph.adjncy.empty()) {  // no edges: any balanced split cuts nothing
    const RowPartition balanced = RowPartition::balanced(n, parts);
    for (GlobalOrdinal i = 0; i < n; ++i) part[static_cast<std::size_t>(i)] = static_cast<idx_t>(balanced.owner(i));
    return part;
  }
  if (parts > 0) {
    idx_t num_vertices = static_cast<idx_t>(n), constraints = 1, num_parts = parts, objective = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;  // reproducible partitions run to run
    const int status = METIS_PartGraphKway(&num_vertices, &constraints, graph.xadj.data(), graph.adjncy.data(),
                                           graph.weights.data(), nullptr, nullptr, &num_parts, nullptr, nullptr,
                                           options, &objective, part.data());
    KELP_REQUIRE(status == METIS_OK, NotSupported,
                 "kelp::dist::partition_metis: METIS_PartGraphKway failed with status "
                     << status << (status == METIS_ERROR_MEMORY ? " (out of memory)" : "") << " on " << n
                     << " rows into " << parts << " parts");
  }
  // The cut of the symmetrised graph (each edge once), for the caller's information.
  for (GlobalOrdinal i = 0; i < n; ++i) {
    for (auto k = graph.xadj[static_cast<std::size_t>(i)]; k < graph.xadj[static_cast<std::size_t>(i) + 1]; ++k) {
      const idx_t j = graph.adjncy[static_cast<std::size_t>(k)];
      if (j > i && part[static_cast<std::size_t>(i)] != part[static_cast<std::size_t>(j)]) ++edge_cut;
    }
  }
  return part;
}

}  // namespace impl

/// METIS k-way partition of the rows of a square distributed matrix into one part per rank, as
/// a renumbering (see GraphPartition). The graph is the pattern of A + A^T without the diagonal,
/// vertex weights the row lengths (so parts balance entries, the work of an SpMV); METIS runs
/// on rank 0 with a fixed seed, so the result is reproducible. p = 1 gives the identity; with
/// more ranks than rows each row gets its own rank and the others stay empty.
/// Collective. Cost: gathers the pattern on rank 0 (see the header comment for the limit).
/// @throws InvalidArgument on every rank for a rectangular matrix; NotSupported when the
///         matrix exceeds METIS's 32-bit indices or METIS fails
template <class Scalar>
GraphPartition partition_metis(MPI_Comm comm, const LocalRows<Scalar>& A) {
  constexpr const char* function = "kelp::dist::partition_metis";
  const int rank = impl::comm_rank(comm), size = impl::comm_size(comm);
  KELP_DIST_REQUIRE_ALL(comm, A.global_rows == A.global_cols, InvalidArgument, function,
                        "METIS partitions the graph of a square matrix; A is " << A.global_rows << " x "
                                                                               << A.global_cols);
  KELP_DIST_REQUIRE_ALL(comm, A.rows.num_ranks() == size && A.num_local_rows() == A.rows.size(rank),
                        InvalidArgument, function,
                        "A.rows spans " << A.rows.num_ranks() << " ranks and gives this rank " << A.rows.size(rank)
                                        << " rows; it holds " << A.num_local_rows() << " rows on a communicator of "
                                        << size);
  std::int64_t local_entries = A.num_local_entries(), total_entries = 0;
  MPI_Allreduce(&local_entries, &total_entries, 1, MPI_INT64_T, MPI_SUM, comm);
  const GlobalOrdinal n = A.global_rows;
  KELP_DIST_REQUIRE_ALL(comm, n < std::numeric_limits<idx_t>::max() && 2 * total_entries < std::numeric_limits<idx_t>::max(),
                        NotSupported, function,
                        "A has " << n << " rows and " << total_entries << " entries; this METIS has "
                                 << 8 * sizeof(idx_t) << "-bit indices (at most " << std::numeric_limits<idx_t>::max()
                                 << " rows and graph edges)");

  // Gather the pattern on rank 0: row lengths, then columns (rows arrive in rank order, which is
  // the global order since ownership is contiguous).
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(A.num_local_rows()));
  for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = A.row_map[i + 1] - A.row_map[i];
  std::vector<std::int64_t> all_lengths;
  std::vector<GlobalOrdinal> all_columns;
  {
    // Each rank sends everything to rank 0 (an all-to-all with one non-empty destination keeps
    // the 64-bit counts and the int-overflow check of impl::alltoallv).
    std::vector<std::int64_t> to_root(static_cast<std::size_t>(size), 0);
    to_root[0] = static_cast<std::int64_t>(lengths.size());
    all_lengths = impl::alltoallv(comm, lengths, to_root);
    to_root[0] = static_cast<std::int64_t>(A.col_index.size());
    std::vector<GlobalOrdinal> columns(A.col_index.begin(), A.col_index.begin() + A.row_map.back());
    all_columns = impl::alltoallv(comm, columns, to_root);
  }

  GraphPartition result;
  result.new_of_old.assign(static_cast<std::size_t>(n), 0);
  result.rows.offsets.assign(static_cast<std::size_t>(size) + 1, 0);
  collective_try(comm, function, [&] {
    if (rank != 0) return;
    std::vector<std::int64_t> row_map(static_cast<std::size_t>(n) + 1, 0);
    std::partial_sum(all_lengths.begin(), all_lengths.end(), row_map.begin() + 1);
    const std::vector<idx_t> part = impl::metis_parts(n, size, row_map, all_columns, result.edge_cut);
    // Contiguous renumbering: part 0's rows first, each part in its original order.
    for (GlobalOrdinal i = 0; i < n; ++i) ++result.rows.offsets[static_cast<std::size_t>(part[i]) + 1];
    std::partial_sum(result.rows.offsets.begin(), result.rows.offsets.end(), result.rows.offsets.begin());
    std::vector<GlobalOrdinal> next(result.rows.offsets.begin(), result.rows.offsets.end() - 1);
    for (GlobalOrdinal i = 0; i < n; ++i) result.new_of_old[static_cast<std::size_t>(i)] = next[part[i]]++;
  });
  MPI_Bcast(result.rows.offsets.data(), size + 1, MPI_INT64_T, 0, comm);
  MPI_Bcast(&result.edge_cut, 1, MPI_INT64_T, 0, comm);
  constexpr std::int64_t chunk = std::int64_t(1) << 27;  // int counts
  for (std::int64_t at = 0; at < n; at += chunk) {
    MPI_Bcast(result.new_of_old.data() + at, static_cast<int>(std::min(chunk, n - at)), MPI_INT64_T, 0, comm);
  }
  return result;
}

/// P A P^T under a graph partition: row i of A becomes row new_of_old[i], owned by its rank
/// under partition.rows, and so do the column indices (the columns are distributed like the
/// rows). Rows come out sorted by column. Collective; one MPI_Alltoallv of the entries.
template <class Scalar>
LocalRows<Scalar> renumber(MPI_Comm comm, const LocalRows<Scalar>& A, const GraphPartition& partition) {
  constexpr const char* function = "kelp::dist::renumber";
  const int rank = impl::comm_rank(comm), size = impl::comm_size(comm);
  KELP_DIST_REQUIRE_ALL(comm,
                        A.global_rows == A.global_cols &&
                            static_cast<GlobalOrdinal>(partition.new_of_old.size()) == A.global_rows &&
                            partition.rows.global_size() == A.global_rows && partition.rows.num_ranks() == size,
                        InvalidArgument, function,
                        "the partition renumbers " << partition.new_of_old.size() << " rows over "
                                                   << partition.rows.num_ranks() << " ranks; A is " << A.global_rows
                                                   << " x " << A.global_cols << " on " << size << " ranks");
  std::vector<impl::Triplet<Scalar>> triplets;
  triplets.reserve(A.col_index.size());
  const GlobalOrdinal first = A.rows.begin(rank);
  const auto& new_of_old = partition.new_of_old;
  for (std::int64_t i = 0; i < A.num_local_rows(); ++i) {
    const GlobalOrdinal new_row = new_of_old[static_cast<std::size_t>(first + i)];
    for (auto k = A.row_map[static_cast<std::size_t>(i)]; k < A.row_map[static_cast<std::size_t>(i) + 1]; ++k) {
      triplets.push_back({new_row, new_of_old[static_cast<std::size_t>(A.col_index[static_cast<std::size_t>(k)])],
                          A.values[static_cast<std::size_t>(k)]});
    }
  }
  return impl::assemble_local_rows(partition.rows, partition.rows, rank,
                                   impl::send_to_row_owners(comm, partition.rows, triplets));
}

namespace impl {

/// y = the entries of x (distributed by `from`) moved to position map(i) (distributed by `to`).
template <class Scalar, class Map>
std::vector<Scalar> permute_vector(MPI_Comm comm, const std::vector<Scalar>& x, const RowPartition& from,
                                   const RowPartition& to, const Map& map) {
  const int rank = comm_rank(comm);
  std::vector<Triplet<Scalar>> moved(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    moved[i] = {map(from.begin(rank) + static_cast<GlobalOrdinal>(i)), 0, x[i]};
  }
  const auto received = send_to_row_owners(comm, to, moved);
  std::vector<Scalar> y(static_cast<std::size_t>(to.size(rank)));
  for (const auto& t : received) y[static_cast<std::size_t>(t.row - to.begin(rank))] = t.value;
  return y;
}

template <class Scalar>
void require_vector(MPI_Comm comm, const std::vector<Scalar>& x, const RowPartition& rows,
                    const GraphPartition& partition, const char* function) {
  const int rank = comm_rank(comm), size = comm_size(comm);
  KELP_DIST_REQUIRE_ALL(comm,
                        rows.num_ranks() == size && static_cast<GlobalOrdinal>(x.size()) == rows.size(rank) &&
                            rows.global_size() == partition.rows.global_size() &&
                            static_cast<GlobalOrdinal>(partition.new_of_old.size()) == rows.global_size(),
                        DimensionMismatch, function,
                        "x has " << x.size() << " entries on this rank, its partition gives it " << rows.size(rank)
                                 << " of " << rows.global_size() << "; the graph partition renumbers "
                                 << partition.new_of_old.size() << " rows");
}

}  // namespace impl

/// P x: this rank's block of x in the new numbering (partition.rows), from its block in the
/// original numbering under `old_rows`. Collective; one MPI_Alltoallv.
template <class Scalar>
std::vector<Scalar> to_new_numbering(MPI_Comm comm, const std::vector<Scalar>& x_old, const RowPartition& old_rows,
                                     const GraphPartition& partition) {
  impl::require_vector(comm, x_old, old_rows, partition, "kelp::dist::to_new_numbering");
  return impl::permute_vector(comm, x_old, old_rows, partition.rows, [&](GlobalOrdinal i) {
    return partition.new_of_old[static_cast<std::size_t>(i)];
  });
}

/// P^T x: this rank's block of x in the original numbering under `old_rows`, from its block in
/// the new numbering (partition.rows); undoes to_new_numbering. Collective; one MPI_Alltoallv.
template <class Scalar>
std::vector<Scalar> to_original_numbering(MPI_Comm comm, const std::vector<Scalar>& x_new,
                                          const GraphPartition& partition, const RowPartition& old_rows) {
  std::vector<GlobalOrdinal> old_of_new(partition.new_of_old.size());
  for (std::size_t i = 0; i < old_of_new.size(); ++i) {
    old_of_new[static_cast<std::size_t>(partition.new_of_old[i])] = static_cast<GlobalOrdinal>(i);
  }
  const int rank = impl::comm_rank(comm);
  KELP_DIST_REQUIRE_ALL(comm,
                        partition.rows.num_ranks() == impl::comm_size(comm) &&
                            static_cast<GlobalOrdinal>(x_new.size()) == partition.rows.size(rank),
                        DimensionMismatch, "kelp::dist::to_original_numbering",
                        "x has " << x_new.size() << " entries on this rank; the graph partition gives it "
                                 << partition.rows.size(rank));
  KELP_DIST_REQUIRE_ALL(comm,
                        old_rows.num_ranks() == impl::comm_size(comm) &&
                            old_rows.global_size() == partition.rows.global_size(),
                        DimensionMismatch, "kelp::dist::to_original_numbering",
                        "old_rows covers " << old_rows.global_size() << " rows over " << old_rows.num_ranks()
                                           << " ranks; the graph partition renumbers "
                                           << partition.rows.global_size() << " rows");
  return impl::permute_vector(comm, x_new, partition.rows, old_rows,
                              [&](GlobalOrdinal i) { return old_of_new[static_cast<std::size_t>(i)]; });
}

}  // namespace kelp::dist

#pragma once
/// Moving rows between ranks: the all-to-all exchange of entries (triplets) to the owners of
/// their rows, and the assembly of this rank's LocalRows from what arrived. Shared by the
/// distributed Matrix Market reader and the METIS redistribution (host code, MPI only).

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/local_rows.hpp"

namespace kelp::dist::impl {

inline int comm_rank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
inline int comm_size(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

/// All-to-all of variable-size blocks of trivially copyable T (sent as bytes): `send` holds the
/// block for rank 0, then rank 1, ..., of sizes send_counts; returns the blocks received, rank 0's
/// first. Received blocks keep their order, so what one rank sent stays in its order.
/// @throws NotSupported on every rank when a block exceeds MPI's int count of bytes
template <class T>
std::vector<T> alltoallv(MPI_Comm comm, const std::vector<T>& send, const std::vector<std::int64_t>& send_counts) {
  static_assert(std::is_trivially_copyable<T>::value, "alltoallv: T must be trivially copyable");
  const int size = comm_size(comm);
  std::vector<std::int64_t> receive_counts(static_cast<std::size_t>(size));
  MPI_Alltoall(send_counts.data(), 1, MPI_INT64_T, receive_counts.data(), 1, MPI_INT64_T, comm);
  std::vector<int> sc(size), sd(size), rc(size), rd(size);
  std::int64_t send_offset = 0, receive_offset = 0;
  bool fits = true;
  for (int r = 0; r < size; ++r) {
    const std::int64_t bytes_out = send_counts[r] * static_cast<std::int64_t>(sizeof(T));
    const std::int64_t bytes_in = receive_counts[r] * static_cast<std::int64_t>(sizeof(T));
    const std::int64_t out_at = send_offset * static_cast<std::int64_t>(sizeof(T));
    const std::int64_t in_at = receive_offset * static_cast<std::int64_t>(sizeof(T));
    fits = fits && bytes_out <= INT_MAX && bytes_in <= INT_MAX && out_at <= INT_MAX && in_at <= INT_MAX;
    sc[r] = static_cast<int>(bytes_out);
    rc[r] = static_cast<int>(bytes_in);
    sd[r] = static_cast<int>(out_at);
    rd[r] = static_cast<int>(in_at);
    send_offset += send_counts[r];
    receive_offset += receive_counts[r];
  }
  require_all(comm, fits,
              "the entries exchanged exceed 2^31 bytes per rank, more than one MPI_Alltoallv moves; "
              "use more ranks",
              "kelp::dist::alltoallv");
  std::vector<T> received(static_cast<std::size_t>(receive_offset));
  MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, received.data(), rc.data(), rd.data(), MPI_BYTE,
                comm);
  return received;
}

/// One entry on its way to the owner of its row.
template <class Scalar>
struct Triplet {
  GlobalOrdinal row;
  GlobalOrdinal col;
  Scalar value;
};

/// Sends each triplet to the owner of its row under `rows` (order per destination kept) and
/// returns the triplets this rank received, in source-rank order.
template <class Scalar>
std::vector<Triplet<Scalar>> send_to_row_owners(MPI_Comm comm, const RowPartition& rows,
                                                const std::vector<Triplet<Scalar>>& triplets) {
  const int size = comm_size(comm);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(size), 0);
  std::vector<int> owner(triplets.size());
  for (std::size_t k = 0; k < triplets.size(); ++k) {
    owner[k] = rows.owner(triplets[k].row);
    ++counts[static_cast<std::size_t>(owner[k])];
  }
  std::vector<std::int64_t> next(static_cast<std::size_t>(size), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, next.begin() + 1);
  std::vector<Triplet<Scalar>> send(triplets.size());
  for (std::size_t k = 0; k < triplets.size(); ++k) send[static_cast<std::size_t>(next[owner[k]]++)] = triplets[k];
  return alltoallv(comm, send, counts);
}

/// This rank's LocalRows from the triplets of its rows: each row sorted by column (stable, so
/// duplicates keep their arrival order) and duplicates summed in that order, exactly as
/// kelp::crs_from_coo does for the serial reader.
/// Preconditions: every triplet's row is owned by `rank` under `rows`, its column < cols.global_size().
template <class Scalar>
LocalRows<Scalar> assemble_local_rows(const RowPartition& rows, const RowPartition& cols, int rank,
                                      const std::vector<Triplet<Scalar>>& triplets) {
  LocalRows<Scalar> local;
  local.global_rows = rows.global_size();
  local.global_cols = cols.global_size();
  local.rows = rows;
  local.cols = cols;
  const GlobalOrdinal first = rows.begin(rank);
  const std::size_t num_rows = static_cast<std::size_t>(rows.size(rank));
  std::vector<std::int64_t> start(num_rows + 1, 0);
  for (const auto& t : triplets) ++start[static_cast<std::size_t>(t.row - first) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::pair<GlobalOrdinal, Scalar>> sorted(triplets.size());
  {
    std::vector<std::int64_t> next(start.begin(), start.end() - 1);
    for (const auto& t : triplets) sorted[static_cast<std::size_t>(next[t.row - first]++)] = {t.col, t.value};
  }
  local.row_map.assign(num_rows + 1, 0);
  local.col_index.reserve(triplets.size());
  local.values.reserve(triplets.size());
  for (std::size_t i = 0; i < num_rows; ++i) {
    const auto row_begin = sorted.begin() + start[i];
    const auto row_end = sorted.begin() + start[i + 1];
    std::stable_sort(row_begin, row_end, [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto it = row_begin; it != row_end; ++it) {
      if (it != row_begin && it->first == local.col_index.back()) {
        local.values.back() += it->second;
      } else {
        local.col_index.push_back(it->first);
        local.values.push_back(it->second);
      }
    }
    local.row_map[i + 1] = static_cast<std::int64_t>(local.col_index.size());
  }
  return local;
}

}  // namespace kelp::dist::impl

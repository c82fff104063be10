#pragma once
/// Moving whole vectors between one rank and the local blocks of a distributed vector:
/// scatter_vector (rank `root`'s global vector -> every rank's block) and gather_vector (the
/// blocks -> one global vector on `root`), optionally through the renumbering a partitioner
/// returns, so that the user's vectors stay in the original numbering.
///
/// new_of_old: a permutation of 0..n-1 (global entry i of the original numbering is entry
/// new_of_old[i] of the distributed numbering); empty = identity. Only `root` reads it and the
/// global vector; every rank passes the same partition. Errors are collective (every rank
/// throws the same error, see collective_error.hpp).
///
/// Example:
///   auto b_local = dist::scatter_vector<double>(comm, A.row_partition(), b_on_rank0, new_of_old);
///   ... solve into x_local ...
///   std::vector<double> x = dist::gather_vector(comm, A.col_partition(), x_local, new_of_old);  // on rank 0

#include <mpi.h>

#include <limits>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/local_rows.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::dist {

namespace impl {
/// Counts and displacements of each rank's block, as MPI's int.
inline void block_counts(const RowPartition& part, std::vector<int>& counts, std::vector<int>& displs) {
  const int ranks = part.num_ranks();
  counts.assign(static_cast<std::size_t>(ranks), 0);
  displs.assign(static_cast<std::size_t>(ranks), 0);
  for (int r = 0; r < ranks; ++r) {
    counts[static_cast<std::size_t>(r)] = static_cast<int>(part.size(r));
    displs[static_cast<std::size_t>(r)] = static_cast<int>(part.begin(r));
  }
}

/// Checks shared by scatter and gather; `global_size` and new_of_old are looked at on root only.
inline void check_transfer(MPI_Comm comm, const RowPartition& part, std::size_t local_size,
                           bool check_local, int root, std::size_t global_size,
                           const std::vector<GlobalOrdinal>& new_of_old, const char* where) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  require_same_on_all_ranks(comm, {static_cast<std::int64_t>(part.offsets.size()), fingerprint(part.offsets)},
                            std::string(where) + ": the partition");
  collective_try(comm, where, [&] {
    KELP_REQUIRE(part.num_ranks() == size, InvalidArgument,
                 where << ": the partition is over " << part.num_ranks() << " ranks, the communicator has " << size);
    KELP_REQUIRE(part.global_size() <= std::numeric_limits<int>::max(), NotSupported,
                 where << ": " << part.global_size() << " entries exceed MPI's int counts");
    if (check_local) {
      KELP_REQUIRE(static_cast<GlobalOrdinal>(local_size) == part.size(rank), DimensionMismatch,
                   where << ": the local block has " << local_size << " entries, the partition gives rank "
                         << rank << " " << part.size(rank));
    }
    if (rank != root) return;
    KELP_REQUIRE(static_cast<GlobalOrdinal>(global_size) == part.global_size(), DimensionMismatch,
                 where << ": the global vector has " << global_size << " entries, the partition "
                       << part.global_size());
    if (new_of_old.empty()) return;
    KELP_REQUIRE(static_cast<GlobalOrdinal>(new_of_old.size()) == part.global_size(), DimensionMismatch,
                 where << ": new_of_old has " << new_of_old.size() << " entries, expected " << part.global_size());
    std::vector<char> seen(new_of_old.size(), 0);
    for (std::size_t i = 0; i < new_of_old.size(); ++i) {
      const GlobalOrdinal j = new_of_old[i];
      KELP_REQUIRE(j >= 0 && j < part.global_size() && !seen[static_cast<std::size_t>(j)], InvalidArgument,
                   where << ": new_of_old is not a permutation (entry " << i << " = " << j << ")");
      seen[static_cast<std::size_t>(j)] = 1;
    }
  });
}
}  // namespace impl

/// Collective: rank root's `global` (original numbering) -> this rank's block, on the device.
template <class Scalar, class Device = DefaultDevice>
VectorView<Scalar, Device> scatter_vector(MPI_Comm comm, const RowPartition& part, const std::vector<Scalar>& global,
                                          const std::vector<GlobalOrdinal>& new_of_old = {}, int root = 0) {
  constexpr const char* where = "kelp::dist::scatter_vector";
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  impl::check_transfer(comm, part, 0, false, root, global.size(), new_of_old, where);
  std::vector<Scalar> renumbered;
  const Scalar* source = global.data();
  if (rank == root && !new_of_old.empty()) {
    renumbered.resize(global.size());
    for (std::size_t i = 0; i < global.size(); ++i) renumbered[static_cast<std::size_t>(new_of_old[i])] = global[i];
    source = renumbered.data();
  }
  std::vector<int> counts, displs;
  impl::block_counts(part, counts, displs);
  VectorView<Scalar, Device> local("kelp::dist::scatter_vector", static_cast<std::size_t>(part.size(rank)));
  auto host = Kokkos::create_mirror_view(local);
  MPI_Scatterv(source, counts.data(), displs.data(), impl::mpi_type<Scalar>(), host.data(),
               counts[static_cast<std::size_t>(rank)], impl::mpi_type<Scalar>(), root, comm);
  Kokkos::deep_copy(local, host);
  return local;
}

/// Collective: every rank's block -> the global vector (original numbering) on root; other
/// ranks get an empty vector.
template <class Scalar, class Device>
std::vector<Scalar> gather_vector(MPI_Comm comm, const RowPartition& part, const Kokkos::View<Scalar*, Kokkos::LayoutLeft, Device>& local,
                                  const std::vector<GlobalOrdinal>& new_of_old = {}, int root = 0) {
  constexpr const char* where = "kelp::dist::gather_vector";
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  impl::check_transfer(comm, part, local.extent(0), true, root, static_cast<std::size_t>(part.global_size()),
                       new_of_old, where);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local);
  std::vector<int> counts, displs;
  impl::block_counts(part, counts, displs);
  std::vector<Scalar> renumbered(rank == root ? static_cast<std::size_t>(part.global_size()) : 0);
  MPI_Gatherv(host.data(), counts[static_cast<std::size_t>(rank)], impl::mpi_type<Scalar>(), renumbered.data(),
              counts.data(), displs.data(), impl::mpi_type<Scalar>(), root, comm);
  if (rank != root || new_of_old.empty()) return renumbered;
  std::vector<Scalar> global(renumbered.size());
  for (std::size_t i = 0; i < global.size(); ++i) global[i] = renumbered[static_cast<std::size_t>(new_of_old[i])];
  return global;
}

}  // namespace kelp::dist

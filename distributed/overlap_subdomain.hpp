#pragma once
/// One rank's subdomain for overlapping Schwarz methods: its owned rows plus `overlap` layers of
/// neighbouring rows, fetched from their owners, as a local square CRS pattern; and the plans
/// that refill its values (numeric phase) and gather a vector's overlap entries (every apply).
///
/// Layers: layer 1 is the ghost columns of the distributed matrix (the rows the owned rows couple
/// to); layer k + 1 is the columns of layer k's rows that are in no earlier layer. The subdomain
/// matrix keeps, of each subdomain row, the entries whose column is in the subdomain (the
/// Dirichlet restriction A(S, S) of the classical method).
///
/// Numbering: the subdomain rows in increasing global index. Partitions are contiguous, so the
/// owned rows are one range [owned_begin, owned_begin + n) of it, and each neighbour's rows are
/// one range too (a message lands in place, no unpack). With overlap 0 the subdomain is the owned
/// rows and its matrix equals the local block entry for entry (same order, same values).
///
/// Symbolic (the constructor, collective): one pattern fetch per layer (who has which row:
/// three all-to-alls), then one exchange that fixes who sends which rows' values and vector
/// entries to whom. Numeric (fill_values, collective): one point-to-point exchange of the
/// overlap rows' values along that plan; no pattern moves again.
///
/// Each rank's rows are streamed in one fixed order, "row by row, the local-block entries then
/// the ghost-block entries", on the owner and in every copy, so a value's place in the subdomain
/// matrix is fixed in the symbolic phase (source_).
///
/// Host code (setup only): the pattern work runs on the host, as DistCrsMatrix's construction.

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/exchange.hpp"

namespace kelp::dist {

/// The communication of a subdomain: the vector exchange of every apply (send_* : owned entries
/// that neighbours hold in their overlap; recv_*: the subdomain positions each owner fills) and
/// the value exchange of each numeric setup (the same neighbours, whole rows of values).
struct OverlapPlan {
  std::vector<int> send_ranks;               ///< ranks that hold some of our rows in their overlap
  std::vector<Ordinal> send_offsets{0};      ///< send_ranks[p] gets slots [send_offsets[p], +1)
  std::vector<Ordinal> send_local;           ///< owned local row of each slot
  std::vector<int> recv_ranks;               ///< owners of our overlap rows
  std::vector<Ordinal> recv_begin;           ///< recv_ranks[p] fills subdomain positions
  std::vector<Ordinal> recv_count;           ///<   [recv_begin[p], recv_begin[p] + recv_count[p])
  std::vector<Offset> value_send_offsets{0};  ///< values sent to send_ranks[p]: [offsets[p], +1)
  std::vector<Offset> value_send_index;      ///< own-stream index of each value sent
  std::vector<Offset> value_recv_offsets{0};  ///< values from recv_ranks[p]: [offsets[p], +1)

  Ordinal num_send() const { return send_offsets.back(); }
  int num_messages() const { return static_cast<int>(send_ranks.size() + recv_ranks.size()); }
};

namespace impl {

/// This rank's rows as one stream of entries with global columns: row i is its local-block
/// entries, then its ghost-block entries. values only when asked for.
template <class Scalar>
struct OwnRowStream {
  std::vector<Offset> row_start{0};
  std::vector<GlobalOrdinal> cols;
  std::vector<Scalar> values;

  /// A fingerprint of the pattern (row lengths and columns), to tell a numeric update that the
  /// pattern changed.
  std::int64_t pattern_fingerprint() const {
    std::vector<std::int64_t> all(row_start.begin(), row_start.end());
    all.insert(all.end(), cols.begin(), cols.end());
    return fingerprint(all);
  }
};

template <class Scalar, class Device>
OwnRowStream<Scalar> own_row_stream(const DistCrsMatrix<Scalar, Device>& A, bool with_values) {
  const auto h = Kokkos::HostSpace();
  const auto& L = A.local_block();
  const auto& G = A.ghost_block();
  const auto lrm = Kokkos::create_mirror_view_and_copy(h, L.row_map());
  const auto lci = Kokkos::create_mirror_view_and_copy(h, L.entries());
  const auto grm = Kokkos::create_mirror_view_and_copy(h, G.row_map());
  const auto gci = Kokkos::create_mirror_view_and_copy(h, G.entries());
  decltype(Kokkos::create_mirror_view_and_copy(h, L.values())) lva, gva;
  if (with_values) {
    lva = Kokkos::create_mirror_view_and_copy(h, L.values());
    gva = Kokkos::create_mirror_view_and_copy(h, G.values());
  }
  const GlobalOrdinal col_begin = A.col_partition().begin(A.rank());
  const auto& ghost_rows = A.ghost_rows_host();
  const auto& ghost_cols = A.ghost_columns();
  OwnRowStream<Scalar> s;
  s.row_start.reserve(static_cast<std::size_t>(A.num_local_rows()) + 1);
  s.cols.reserve(static_cast<std::size_t>(A.local_nnz()));
  if (with_values) s.values.reserve(static_cast<std::size_t>(A.local_nnz()));
  std::size_t r = 0;  // next compressed ghost row
  for (Ordinal i = 0; i < A.num_local_rows(); ++i) {
    const auto ui = static_cast<std::size_t>(i);
    for (auto e = static_cast<std::size_t>(lrm(ui)); e < static_cast<std::size_t>(lrm(ui + 1)); ++e) {
      s.cols.push_back(col_begin + lci(e));
      if (with_values) s.values.push_back(lva(e));
    }
    if (r < ghost_rows.size() && ghost_rows[r] == i) {
      for (auto e = static_cast<std::size_t>(grm(r)); e < static_cast<std::size_t>(grm(r + 1)); ++e) {
        s.cols.push_back(ghost_cols[static_cast<std::size_t>(gci(e))]);
        if (with_values) s.values.push_back(gva(e));
      }
      ++r;
    }
    s.row_start.push_back(static_cast<Offset>(s.cols.size()));
  }
  return s;
}

/// Per-destination counts of a list of global rows sorted by owner.
inline std::vector<std::int64_t> counts_by_owner(const RowPartition& rows, const std::vector<GlobalOrdinal>& sorted) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(rows.num_ranks()), 0);
  for (const GlobalOrdinal g : sorted) ++counts[static_cast<std::size_t>(rows.owner(g))];
  return counts;
}

/// What arrives from each rank of an all-to-all with these send counts.
inline std::vector<std::int64_t> receive_counts(MPI_Comm comm, const std::vector<std::int64_t>& send_counts) {
  std::vector<std::int64_t> received(send_counts.size(), 0);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT64_T, received.data(), 1, MPI_INT64_T, comm);
  return received;
}

/// The rows of `wanted` (sorted, none owned here) asked of their owners: returns their patterns
/// (global columns, in the owners' stream order) as start offsets and columns, in wanted's order.
/// Collective: every rank calls it, with an empty list if it wants nothing.
template <class Scalar>
std::pair<std::vector<Offset>, std::vector<GlobalOrdinal>> fetch_patterns(MPI_Comm comm, const RowPartition& rows,
                                                                          const OwnRowStream<Scalar>& own,
                                                                          const std::vector<GlobalOrdinal>& wanted) {
  const int size = comm_size(comm), rank = comm_rank(comm);
  const auto counts = counts_by_owner(rows, wanted);
  const auto asked_counts = receive_counts(comm, counts);
  const std::vector<GlobalOrdinal> asked = alltoallv(comm, wanted, counts);
  // Replies: each asked row's length, then its columns, grouped by the asking rank.
  std::vector<Offset> lengths;
  std::vector<GlobalOrdinal> cols;
  std::vector<std::int64_t> col_counts(static_cast<std::size_t>(size), 0);
  std::size_t k = 0;
  for (int p = 0; p < size; ++p) {
    for (std::int64_t j = 0; j < asked_counts[static_cast<std::size_t>(p)]; ++j, ++k) {
      const auto i = static_cast<std::size_t>(asked[k] - rows.begin(rank));
      const Offset b = own.row_start[i], e = own.row_start[i + 1];
      lengths.push_back(e - b);
      cols.insert(cols.end(), own.cols.begin() + b, own.cols.begin() + e);
      col_counts[static_cast<std::size_t>(p)] += e - b;
    }
  }
  const std::vector<Offset> got_lengths = alltoallv(comm, lengths, asked_counts);
  std::vector<Offset> start(got_lengths.size() + 1, 0);
  for (std::size_t j = 0; j < got_lengths.size(); ++j) start[j + 1] = start[j] + got_lengths[j];
  return {std::move(start), alltoallv(comm, cols, col_counts)};
}

}  // namespace impl

template <class Scalar, class Device = DefaultDevice>
class OverlapSubdomain {
 public:
  /// Collective over A's communicator: the subdomain of `overlap` layers (>= 0, the same on
  /// every rank) around this rank's rows.
  /// @throws (on every rank alike) InvalidArgument for overlap < 0 or differing across ranks, a
  ///         non-square matrix, or column and row partitions that differ
  OverlapSubdomain(const DistCrsMatrix<Scalar, Device>& A, int overlap);

  /// The subdomain matrix's values from A's current values, in pattern order (host, size
  /// nnz()). Collective. @throws (on every rank alike) InvalidState when A's pattern on some
  /// rank differs from the one the subdomain was built from
  std::vector<Scalar> values(const DistCrsMatrix<Scalar, Device>& A) const;

  int overlap() const { return overlap_; }
  /// Subdomain size, owned rows, and where the owned rows start in the subdomain numbering.
  Ordinal num_rows() const { return static_cast<Ordinal>(row_map_.size()) - 1; }
  Ordinal num_owned() const { return num_owned_; }
  Ordinal owned_begin() const { return owned_begin_; }
  /// The overlap rows (global, increasing): positions [0, owned_begin) and [owned_begin + n, end).
  const std::vector<GlobalOrdinal>& overlap_rows() const { return outside_; }
  /// The subdomain pattern (host CRS, subdomain numbering, sorted rows).
  const std::vector<Offset>& row_map() const { return row_map_; }
  const std::vector<Ordinal>& entries() const { return entries_; }
  Offset nnz() const { return row_map_.back(); }
  const OverlapPlan& plan() const { return plan_; }
  MPI_Comm communicator() const { return comm_; }

 private:
  void build_plan(const RowPartition& rows, const impl::OwnRowStream<Scalar>& own,
                  const std::vector<Offset>& pattern_start);

  MPI_Comm comm_;
  int overlap_ = 0;
  Ordinal num_owned_ = 0, owned_begin_ = 0;
  std::vector<GlobalOrdinal> outside_;
  std::vector<Offset> row_map_{0};
  std::vector<Ordinal> entries_;
  std::vector<Offset> source_;  // per entry: own-stream index, or own nnz + received index
  Offset own_nnz_ = 0;
  std::int64_t own_fingerprint_ = 0;
  OverlapPlan plan_;
};

// ------------------------------------------------------------------------------------------------
// Implementation (compiled once per scalar with the additive Schwarz preconditioner).

template <class Scalar, class Device>
OverlapSubdomain<Scalar, Device>::OverlapSubdomain(const DistCrsMatrix<Scalar, Device>& A, int overlap)
    : comm_(A.communicator()), overlap_(overlap) {
  constexpr const char* where = "kelp::dist::OverlapSubdomain";
  KELP_DIST_REQUIRE_ALL(comm_, overlap >= 0, InvalidArgument, where, "overlap is " << overlap << ", expected >= 0");
  require_same_on_all_ranks(comm_, {overlap}, "the overlap of the additive Schwarz subdomains");
  const RowPartition& rows = A.row_partition();
  KELP_DIST_REQUIRE_ALL(comm_, A.global_rows() == A.global_cols() && rows.offsets == A.col_partition().offsets,
                        InvalidArgument, where,
                        "the matrix is " << A.global_rows() << " x " << A.global_cols()
                                         << "; overlapping subdomains need a square matrix whose column "
                                            "partition equals its row partition");
  const int rank = A.rank();
  const GlobalOrdinal b = rows.begin(rank), e = rows.end(rank);
  num_owned_ = A.num_local_rows();
  const auto own = impl::own_row_stream(A, false);
  own_nnz_ = static_cast<Offset>(own.cols.size());
  own_fingerprint_ = own.pattern_fingerprint();

  // Layers: fetch the frontier's patterns, the new columns are the next frontier.
  std::vector<GlobalOrdinal> frontier = A.ghost_columns();
  std::vector<std::vector<GlobalOrdinal>> patterns;  // of outside_'s rows, built unsorted then permuted
  std::vector<GlobalOrdinal> fetched_rows;
  for (int layer = 1; layer <= overlap; ++layer) {
    auto [start, cols] = impl::fetch_patterns(comm_, rows, own, frontier);
    for (std::size_t k = 0; k < frontier.size(); ++k) {
      fetched_rows.push_back(frontier[k]);
      patterns.emplace_back(cols.begin() + start[k], cols.begin() + start[k + 1]);
    }
    std::vector<GlobalOrdinal> known = fetched_rows;
    std::sort(known.begin(), known.end());
    std::vector<GlobalOrdinal> next;
    for (const GlobalOrdinal c : cols) {
      if ((c < b || c >= e) && !std::binary_search(known.begin(), known.end(), c)) next.push_back(c);
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    frontier = std::move(next);
  }
  // outside_ sorted, with each row's pattern in the same order.
  std::vector<std::size_t> order(fetched_rows.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return fetched_rows[x] < fetched_rows[y]; });
  outside_.reserve(order.size());
  std::vector<Offset> pattern_start{0};
  for (const std::size_t k : order) {
    outside_.push_back(fetched_rows[k]);
    pattern_start.push_back(pattern_start.back() + static_cast<Offset>(patterns[k].size()));
  }
  owned_begin_ = static_cast<Ordinal>(std::lower_bound(outside_.begin(), outside_.end(), b) - outside_.begin());
  collective_try(comm_, where, [&] {
    KELP_REQUIRE(outside_.size() + static_cast<std::size_t>(num_owned_) <=
                     static_cast<std::size_t>(std::numeric_limits<Ordinal>::max()),
                 NotSupported, where << ": the subdomain of rank " << rank << " exceeds Ordinal");
  });

  // The pattern: each row's entries inside the subdomain, in subdomain numbering, sorted.
  const auto position = [&](GlobalOrdinal g) -> Ordinal {
    if (g >= b && g < e) return owned_begin_ + static_cast<Ordinal>(g - b);
    const auto it = std::lower_bound(outside_.begin(), outside_.end(), g);
    if (it == outside_.end() || *it != g) return -1;
    const auto k = static_cast<Ordinal>(it - outside_.begin());
    return k < owned_begin_ ? k : k + num_owned_;
  };
  const auto n_sub = static_cast<Ordinal>(outside_.size()) + num_owned_;
  std::vector<std::pair<Ordinal, Offset>> row;
  for (Ordinal s = 0; s < n_sub; ++s) {
    row.clear();
    const bool owned = s >= owned_begin_ && s < owned_begin_ + num_owned_;
    if (owned) {
      const auto i = static_cast<std::size_t>(s - owned_begin_);
      for (Offset t = own.row_start[i]; t < own.row_start[i + 1]; ++t) {
        const Ordinal c = position(own.cols[static_cast<std::size_t>(t)]);
        if (c >= 0) row.emplace_back(c, t);
      }
    } else {
      const auto k = static_cast<std::size_t>(s < owned_begin_ ? s : s - num_owned_);
      const auto& cols = patterns[order[k]];
      for (std::size_t t = 0; t < cols.size(); ++t) {
        const Ordinal c = position(cols[t]);
        if (c >= 0) row.emplace_back(c, own_nnz_ + pattern_start[k] + static_cast<Offset>(t));
      }
    }
    std::stable_sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [c, src] : row) entries_.push_back(c), source_.push_back(src);
    row_map_.push_back(static_cast<Offset>(entries_.size()));
  }
  build_plan(rows, own, pattern_start);
}

template <class Scalar, class Device>
void OverlapSubdomain<Scalar, Device>::build_plan(const RowPartition& rows, const impl::OwnRowStream<Scalar>& own,
                                                  const std::vector<Offset>& pattern_start) {
  const int size = impl::comm_size(comm_), rank = impl::comm_rank(comm_);
  // Receive side: each owner's rows are one range of outside_, hence of the subdomain.
  const auto counts = impl::counts_by_owner(rows, outside_);
  Ordinal k = 0;
  for (int p = 0; p < size; ++p) {
    const auto c = static_cast<Ordinal>(counts[static_cast<std::size_t>(p)]);
    if (c == 0) continue;
    plan_.recv_ranks.push_back(p);
    plan_.recv_begin.push_back(k < owned_begin_ ? k : k + num_owned_);
    plan_.recv_count.push_back(c);
    plan_.value_recv_offsets.push_back(plan_.value_recv_offsets.back() + pattern_start[static_cast<std::size_t>(k + c)] -
                                       pattern_start[static_cast<std::size_t>(k)]);
    k += c;
  }
  // Send side: which of our rows each neighbour holds.
  const auto asked_counts = impl::receive_counts(comm_, counts);
  const std::vector<GlobalOrdinal> asked = impl::alltoallv(comm_, outside_, counts);
  std::size_t j = 0;
  for (int p = 0; p < size; ++p) {
    const auto c = asked_counts[static_cast<std::size_t>(p)];
    if (c == 0) continue;
    plan_.send_ranks.push_back(p);
    for (std::int64_t t = 0; t < c; ++t, ++j) {
      const auto i = static_cast<std::size_t>(asked[j] - rows.begin(rank));
      plan_.send_local.push_back(static_cast<Ordinal>(i));
      for (Offset v = own.row_start[i]; v < own.row_start[i + 1]; ++v) plan_.value_send_index.push_back(v);
    }
    plan_.send_offsets.push_back(static_cast<Ordinal>(plan_.send_local.size()));
    plan_.value_send_offsets.push_back(static_cast<Offset>(plan_.value_send_index.size()));
  }
}

template <class Scalar, class Device>
std::vector<Scalar> OverlapSubdomain<Scalar, Device>::values(const DistCrsMatrix<Scalar, Device>& A) const {
  constexpr const char* where = "kelp::dist::OverlapSubdomain::values";
  const auto own = impl::own_row_stream(A, true);
  KELP_DIST_REQUIRE_ALL(comm_, A.communicator() == comm_ && own.pattern_fingerprint() == own_fingerprint_,
                        InvalidState, where,
                        "the matrix pattern differs from the one the subdomain was built from; set up "
                        "the preconditioner again (setup_symbolic)");
  std::vector<Scalar> sent(plan_.value_send_index.size());
  for (std::size_t s = 0; s < sent.size(); ++s) sent[s] = own.values[static_cast<std::size_t>(plan_.value_send_index[s])];
  std::vector<Scalar> received(static_cast<std::size_t>(plan_.value_recv_offsets.back()));
  const MPI_Datatype type = impl::mpi_type<Scalar>();
  constexpr int tag = 1418;
  std::vector<MPI_Request> requests;
  requests.reserve(static_cast<std::size_t>(plan_.num_messages()));
  for (std::size_t p = 0; p < plan_.recv_ranks.size(); ++p) {
    requests.emplace_back();
    MPI_Irecv(received.data() + plan_.value_recv_offsets[p],
              static_cast<int>(plan_.value_recv_offsets[p + 1] - plan_.value_recv_offsets[p]), type,
              plan_.recv_ranks[p], tag, comm_, &requests.back());
  }
  for (std::size_t p = 0; p < plan_.send_ranks.size(); ++p) {
    requests.emplace_back();
    MPI_Isend(sent.data() + plan_.value_send_offsets[p],
              static_cast<int>(plan_.value_send_offsets[p + 1] - plan_.value_send_offsets[p]), type,
              plan_.send_ranks[p], tag, comm_, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  std::vector<Scalar> out(source_.size());
  for (std::size_t t = 0; t < source_.size(); ++t) {
    const Offset src = source_[t];
    out[t] = src < own_nnz_ ? own.values[static_cast<std::size_t>(src)]
                            : received[static_cast<std::size_t>(src - own_nnz_)];
  }
  return out;
}

}  // namespace kelp::dist

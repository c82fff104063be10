#pragma once
/// A CRS matrix distributed by rows over the ranks of an MPI communicator, with an overlapped
/// halo exchange for y = alpha * op(A) x + beta * y in all modes.
///
/// Each rank owns a contiguous block of rows (the range partition) and a contiguous block of x
/// (the domain partition). Its rows split into
///   - the local block: the columns this rank owns in the domain partition, local numbering;
///   - the ghost block: the columns owned elsewhere, numbered compactly in increasing global
///     index, which (partitions being contiguous) is "by owner, then by global index". It is
///     stored over its non-empty rows only (ghost_rows() gives the local row of each), so the
///     pass after the halo arrives costs O(boundary rows + ghost entries), not O(local rows).
/// The halo plan is built once, here: which local x entries each neighbour needs (send side)
/// and which ghost range each neighbour fills (receive side; ghost g arrives at position g of
/// a row-major n_ghost x k buffer, so no unpack kernel is needed).
///
/// y = alpha A x + beta y:    pack x's halo entries (device kernel), copy to host staging,
///   post receives, send; y = alpha L x + beta y; wait; copy the ghosts to the device;
///   z = alpha G x_ghost over the ghost rows; y(ghost_rows(r)) += z(r) (each local row occurs
///   at most once in the row list: no atomics, a fixed order).
/// y = alpha op(A)^T x + beta y (transpose, conjugate_transpose): the reverse exchange.
///   z = alpha op(G)^T x (one row of z per ghost), copied out and sent to the ghosts' owners;
///   y = alpha op(L)^T x + beta y; wait; the owners add the received contributions neighbour by
///   neighbour in increasing rank order (one kernel per neighbour; within one neighbour every
///   index occurs once), so the sum order is fixed. The transposed blocks are stored explicitly
///   (built once on the host) and multiplied without transposing, so no product has
///   order-dependent atomics: for a fixed rank and thread count the result is bitwise the same
///   from run to run.
///
/// Staging goes through host buffers (Debian's Open MPI is not CUDA-aware): on CUDA they are
/// pinned (Kokkos::CudaHostPinnedSpace), filled and drained by asynchronous copies on the
/// product's execution-space instance, so the copy back of the ghosts is queued behind the
/// local product instead of blocking the host; on a host build the staging buffer is the
/// device buffer itself and the copies vanish.
///
/// Errors while building (inconsistent global sizes or partitions across ranks, a row map of
/// the wrong size, a column index out of range) are collective: every rank throws the same
/// error naming the failing rank (distributed/collective_error.hpp). Shape errors in apply()
/// are local (all ranks must call apply() alike: it communicates).
///
/// Example:
///   dist::LocalRows<double> mine = ...;              // this rank's rows, global columns
///   dist::DistCrsMatrix<double> A(MPI_COMM_WORLD, mine);
///   A.apply(x_local, y_local);                        // y = A x
///   A.apply(y_local, x_local, 1.0, 0.0, OperatorMode::transpose);   // x = A^T y

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/local_rows.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/types.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace kelp::dist {

/// Who sends what to whom in y = A x (the transposed modes use it in reverse). Ranks are in
/// increasing order; offsets index slots (send) or ghost columns (receive).
template <class Device = DefaultDevice>
struct HaloPlan {
  std::vector<int> send_ranks;                 ///< neighbours that need some of our x entries
  std::vector<Ordinal> send_offsets{0};        ///< send_ranks[p] gets slots [send_offsets[p], +1)
  std::vector<int> recv_ranks;                 ///< owners of our ghost columns
  std::vector<Ordinal> recv_offsets{0};        ///< recv_ranks[p] fills ghosts [recv_offsets[p], +1)
  Kokkos::View<Ordinal*, Device> send_local;   ///< local x index of each send slot
  std::vector<Ordinal> send_local_host;        ///< the same on the host

  Ordinal num_send() const { return send_offsets.back(); }
  Ordinal num_recv() const { return recv_offsets.back(); }
  int num_messages() const { return static_cast<int>(send_ranks.size()); }
};

/// Wall-clock seconds of each phase of products, summed since reset (only while timing is on;
/// timing fences after each phase, so it slows products slightly).
struct DistSpmvTimes {
  double pack = 0;   ///< pack kernel + device-to-host copy of the outgoing halo
  double local = 0;  ///< the local-block product (overlaps the messages)
  double wait = 0;   ///< MPI_Waitall: communication not hidden behind the local product
  double ghost = 0;  ///< host-to-device copy + the ghost-block product (or the reverse sums)
  double total = 0;
  long long products = 0;
};

namespace impl {
/// slots(s * k + j) = x(index(s), j): the outgoing halo, row-major so each neighbour's part is
/// contiguous.
template <class X, class Buffer, class Index>
struct PackHalo {
  X x;
  Buffer slots;
  Index index;
  std::size_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t s) const {
    const auto i = static_cast<std::size_t>(index(s));
    for (std::size_t j = 0; j < k; ++j) slots(s * k + j) = x(i, j);
  }
};

/// y(index(s), j) += slots(s * k + j) for the slots of one neighbour (no index repeats there).
template <class Y, class Buffer, class Index>
struct AddHalo {
  Y y;
  Buffer slots;
  Index index;
  std::size_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t s) const {
    const auto i = static_cast<std::size_t>(index(s));
    for (std::size_t j = 0; j < k; ++j) y(i, j) += slots(s * k + j);
  }
};
}  // namespace impl

namespace impl {
/// Where MPI reads and writes the halo. A device memory the host can read (host builds, CUDA
/// UVM) is used directly (separate = false: the staging view is the device buffer, no copies).
/// Otherwise a host buffer: pinned on CUDA, so the device copies run asynchronously at full
/// PCIe speed on the product's stream, pageable host memory on other GPU back ends.
template <class Scalar, class Device>
struct HaloStaging {
  using device_memory = typename Device::memory_space;
  static constexpr bool separate = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, device_memory>::accessible;
#if defined(KOKKOS_ENABLE_CUDA)
  using host_memory = std::conditional_t<std::is_same<device_memory, Kokkos::CudaSpace>::value,
                                         Kokkos::CudaHostPinnedSpace, Kokkos::HostSpace>;
#else
  using host_memory = Kokkos::HostSpace;
#endif
  using view_type = std::conditional_t<separate, Kokkos::View<Scalar*, host_memory>, VectorView<Scalar, Device>>;
};
}  // namespace impl

template <class Scalar, class Device = DefaultDevice>
class DistCrsMatrix {
 public:
  using scalar_type = Scalar;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using matrix_type = CrsMatrix<Scalar, Ordinal, Offset, Device>;
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using multivector_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using const_multivector_type = ConstMultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;

  /// Collective over comm: splits this rank's rows into the local and ghost blocks, exchanges
  /// the halo plan (two all-to-alls) and copies the blocks to the device.
  /// @throws (on every rank alike) InvalidArgument for inconsistent sizes or partitions across
  ///         ranks, a partition whose rank count differs from comm's, a column index out of
  ///         range; DimensionMismatch for a row map, column or value array of the wrong size
  DistCrsMatrix(MPI_Comm comm, const LocalRows<Scalar>& rows);

  DistCrsMatrix(const DistCrsMatrix&) = delete;
  DistCrsMatrix& operator=(const DistCrsMatrix&) = delete;

  MPI_Comm communicator() const { return comm_; }
  int rank() const { return rank_; }
  int num_ranks() const { return size_; }
  GlobalOrdinal global_rows() const { return global_rows_; }
  GlobalOrdinal global_cols() const { return global_cols_; }
  const RowPartition& row_partition() const { return rows_; }
  const RowPartition& col_partition() const { return cols_; }
  Ordinal num_local_rows() const { return local_.num_rows(); }
  Ordinal num_local_cols() const { return local_.num_cols(); }
  Ordinal num_ghosts() const { return ghost_.num_cols(); }
  /// Stored entries on this rank (local + ghost block).
  Offset local_nnz() const { return local_.nnz() + ghost_.nnz(); }
  const matrix_type& local_block() const { return local_; }
  /// The ghost block over its non-empty rows only: num_ghost_rows() x num_ghosts(); compressed
  /// row r is local row ghost_rows()(r) (increasing).
  const matrix_type& ghost_block() const { return ghost_; }
  Ordinal num_ghost_rows() const { return ghost_.num_rows(); }
  /// The local row of each row of ghost_block(), increasing (device and host copies).
  const Kokkos::View<Ordinal*, Device>& ghost_rows() const { return ghost_rows_; }
  const std::vector<Ordinal>& ghost_rows_host() const { return ghost_rows_host_; }
  /// The global column of each ghost column (increasing).
  const std::vector<GlobalOrdinal>& ghost_columns() const { return ghost_global_; }
  const HaloPlan<Device>& halo() const { return plan_; }

  /// y = alpha * op(A) x + beta * y on this rank's blocks (collective: every rank calls it with
  /// the same mode and column count). x has num_local_cols() rows (num_local_rows() for the
  /// transposed modes), y the other. beta = 0 does not read y.
  void apply(const_vector_type x, vector_type y, Scalar alpha = Scalar(1), Scalar beta = Scalar(0),
             OperatorMode mode = OperatorMode::no_transpose) const;
  /// The same for k columns (LayoutLeft) in one exchange of k values per halo entry.
  void apply(const_multivector_type X, multivector_type Y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0), OperatorMode mode = OperatorMode::no_transpose) const;

  /// Turns the per-phase timers on or off (and resets them).
  void set_timing(bool on) const {
    timing_ = on;
    times_ = {};
  }
  const DistSpmvTimes& times() const { return times_; }

 private:
  template <class XView, class YView>
  void check_shapes(const XView& x, const YView& y, OperatorMode mode) const;
  template <class XView, class YView>
  void apply_forward(const XView& x, const YView& y, Scalar alpha, Scalar beta, std::size_t k) const;
  template <class XView, class YView>
  void apply_reverse(const XView& x, const YView& y, Scalar alpha, Scalar beta, bool conjugate,
                     std::size_t k) const;
  void reserve(std::size_t k) const;
  double mark() const;
  using staging_type = typename impl::HaloStaging<Scalar, Device>::view_type;

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  GlobalOrdinal global_rows_ = 0, global_cols_ = 0;
  RowPartition rows_, cols_;
  matrix_type local_, ghost_;      // n x n_local_cols, n_ghost_rows x n_ghost
  matrix_type local_t_, ghost_t_;  // transposes (ghost_t_: n_ghost x n, columns = local rows)
  Kokkos::View<Ordinal*, Device> ghost_rows_;  // local row of each ghost_ row
  std::vector<Ordinal> ghost_rows_host_;
  std::vector<GlobalOrdinal> ghost_global_;
  execution_space exec_;  // every kernel and copy of a product runs on this instance
  HaloPlan<Device> plan_;
  // Analysis caches and staging buffers behind the const apply (not thread safe).
  std::unique_ptr<kernels::SpmvHandle<matrix_type>> local_handle_, ghost_handle_, local_t_handle_,
      ghost_t_handle_;
  mutable std::size_t capacity_k_ = 0;
  mutable vector_type slots_, ghosts_;  // num_send * k and num_ghost * k, row-major
  mutable vector_type ghost_y_;         // num_ghost_rows * k, row-major: G x_ghost before the scatter
  mutable staging_type slots_host_, ghosts_host_;  // what MPI reads and writes
  mutable std::vector<MPI_Request> requests_;
  mutable bool timing_ = false;
  mutable DistSpmvTimes times_;
};

/// A DistCrsMatrix as a kelp::Operator on the local blocks of distributed vectors: solvers
/// (Cg, Gmres, Bicgstab, ...) with dist::MpiReduction run on it unchanged. All three modes.
///
/// Example:
///   auto A = std::make_shared<dist::DistCrsMatrix<double>>(MPI_COMM_WORLD, mine);
///   auto op = std::make_shared<dist::DistOperator<double>>(A);
///   solvers::Cg<double, DefaultDevice, dist::MpiReduction> cg(op, M, params, dist::MpiReduction());
template <class Scalar, class Device = DefaultDevice>
class DistOperator : public Operator<Scalar, Device> {
 public:
  using Base = Operator<Scalar, Device>;
  explicit DistOperator(std::shared_ptr<const DistCrsMatrix<Scalar, Device>> A) : A_(std::move(A)) {
    KELP_REQUIRE(A_ != nullptr, InvalidArgument, "kelp::dist::DistOperator: the matrix is null");
  }
  Ordinal num_rows() const override { return A_->num_local_rows(); }
  Ordinal num_cols() const override { return A_->num_local_cols(); }
  std::string summary() const override {
    return "DistCrsMatrix " + std::to_string(A_->global_rows()) + " x " +
           std::to_string(A_->global_cols()) + " on " + std::to_string(A_->num_ranks()) +
           " ranks (rank " + std::to_string(A_->rank()) + ": " + std::to_string(A_->num_local_rows()) +
           " rows, " + std::to_string(A_->num_ghosts()) + " ghosts)";
  }
  bool supports(OperatorMode) const override { return true; }
  const DistCrsMatrix<Scalar, Device>& matrix() const { return *A_; }

 protected:
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode mode) const override {
    A_->apply(x, y, alpha, beta, mode);
  }
  void apply_block_impl(typename Base::const_multivector_type X, typename Base::multivector_type Y,
                        Scalar alpha, Scalar beta, OperatorMode mode) const override {
    A_->apply(X, Y, alpha, beta, mode);
  }

 private:
  std::shared_ptr<const DistCrsMatrix<Scalar, Device>> A_;
};

// ------------------------------------------------------------------------------------------------
// Implementation (compiled once per scalar in distributed/eti/).

namespace impl {
/// Host CRS pieces before they go to the device.
template <class Scalar>
struct HostBlock {
  Ordinal num_rows = 0, num_cols = 0;
  std::vector<Offset> row_map{0};
  std::vector<Ordinal> entries;
  std::vector<Scalar> values;
};

/// The transpose, rows of the result in increasing original row (deterministic).
template <class Scalar>
HostBlock<Scalar> transpose_host(const HostBlock<Scalar>& a) {
  HostBlock<Scalar> t;
  t.num_rows = a.num_cols;
  t.num_cols = a.num_rows;
  t.row_map.assign(static_cast<std::size_t>(a.num_cols) + 1, 0);
  for (const Ordinal c : a.entries) ++t.row_map[static_cast<std::size_t>(c) + 1];
  for (std::size_t c = 0; c < static_cast<std::size_t>(a.num_cols); ++c) t.row_map[c + 1] += t.row_map[c];
  std::vector<Offset> next(t.row_map.begin(), t.row_map.end() - 1);
  t.entries.resize(a.entries.size());
  t.values.resize(a.values.size());
  for (Ordinal i = 0; i < a.num_rows; ++i) {
    for (Offset e = a.row_map[static_cast<std::size_t>(i)]; e < a.row_map[static_cast<std::size_t>(i) + 1]; ++e) {
      const auto c = static_cast<std::size_t>(a.entries[static_cast<std::size_t>(e)]);
      const auto to = static_cast<std::size_t>(next[c]++);
      t.entries[to] = i;
      t.values[to] = a.values[static_cast<std::size_t>(e)];
    }
  }
  return t;
}

template <class Scalar, class Device>
CrsMatrix<Scalar, Ordinal, Offset, Device> to_device(const HostBlock<Scalar>& b, const char* label) {
  using M = CrsMatrix<Scalar, Ordinal, Offset, Device>;
  typename M::row_map_type row_map(std::string(label) + "::row_map", b.row_map.size());
  typename M::entries_type entries(std::string(label) + "::entries", b.entries.size());
  typename M::values_type values(std::string(label) + "::values", b.values.size());
  auto rh = Kokkos::create_mirror_view(row_map);
  auto eh = Kokkos::create_mirror_view(entries);
  auto vh = Kokkos::create_mirror_view(values);
  for (std::size_t i = 0; i < b.row_map.size(); ++i) rh(i) = b.row_map[i];
  for (std::size_t i = 0; i < b.entries.size(); ++i) eh(i) = b.entries[i];
  for (std::size_t i = 0; i < b.values.size(); ++i) vh(i) = b.values[i];
  Kokkos::deep_copy(row_map, rh);
  Kokkos::deep_copy(entries, eh);
  Kokkos::deep_copy(values, vh);
  return M(b.num_rows, b.num_cols, row_map, entries, values);
}

/// Local checks of one rank's input (thrown inside collective_try).
template <class Scalar>
void check_local_rows(const LocalRows<Scalar>& in, int rank, int size) {
  constexpr const char* where = "kelp::dist::DistCrsMatrix";
  for (const RowPartition* p : {&in.rows, &in.cols}) {
    const char* name = p == &in.rows ? "rows" : "cols";
    KELP_REQUIRE(p->num_ranks() == size, InvalidArgument,
                 where << ": the " << name << " partition is over " << p->num_ranks()
                       << " ranks, the communicator has " << size);
    KELP_REQUIRE(p->offsets.front() == 0, InvalidArgument,
                 where << ": the " << name << " partition starts at " << p->offsets.front() << ", expected 0");
    for (int r = 0; r < size; ++r) {
      KELP_REQUIRE(p->size(r) >= 0, InvalidArgument,
                   where << ": the " << name << " partition decreases at rank " << r << " ("
                         << p->begin(r) << " > " << p->end(r) << ")");
    }
    const GlobalOrdinal expected = p == &in.rows ? in.global_rows : in.global_cols;
    KELP_REQUIRE(p->global_size() == expected, DimensionMismatch,
                 where << ": the " << name << " partition covers " << p->global_size()
                       << " indices, the matrix has " << expected);
  }
  const GlobalOrdinal n = in.rows.size(rank);
  KELP_REQUIRE(n <= std::numeric_limits<Ordinal>::max() && in.cols.size(rank) <= std::numeric_limits<Ordinal>::max(),
               NotSupported, where << ": rank " << rank << " owns more rows or columns than Ordinal counts");
  KELP_REQUIRE(static_cast<GlobalOrdinal>(in.row_map.size()) == n + 1, DimensionMismatch,
               where << ": row_map has " << in.row_map.size() << " entries, expected " << n + 1
                     << " (this rank's " << n << " rows + 1)");
  KELP_REQUIRE(in.row_map.front() == 0, InvalidArgument,
               where << ": row_map starts at " << in.row_map.front() << ", expected 0");
  for (std::size_t i = 0; i + 1 < in.row_map.size(); ++i) {
    KELP_REQUIRE(in.row_map[i] <= in.row_map[i + 1], InvalidArgument,
                 where << ": row_map decreases at local row " << i);
  }
  KELP_REQUIRE(static_cast<std::size_t>(in.row_map.back()) == in.col_index.size() &&
                   in.col_index.size() == in.values.size(),
               DimensionMismatch,
               where << ": row_map ends at " << in.row_map.back() << ", col_index has "
                     << in.col_index.size() << " entries, values " << in.values.size()
                     << "; expected all three equal");
  for (std::size_t e = 0; e < in.col_index.size(); ++e) {
    const GlobalOrdinal c = in.col_index[e];
    KELP_REQUIRE(c >= 0 && c < in.global_cols, InvalidArgument,
                 where << ": column index " << c << " of entry " << e << " is outside [0, "
                       << in.global_cols << ")");
  }
}
}  // namespace impl

template <class Scalar, class Device>
DistCrsMatrix<Scalar, Device>::DistCrsMatrix(MPI_Comm comm, const LocalRows<Scalar>& in) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  // Agreement first (sizes and partitions), then this rank's own input: both collective.
  require_same_on_all_ranks(
      comm_,
      {in.global_rows, in.global_cols, static_cast<std::int64_t>(in.rows.offsets.size()),
       static_cast<std::int64_t>(in.cols.offsets.size()), fingerprint(in.rows.offsets),
       fingerprint(in.cols.offsets)},
      "kelp::dist::DistCrsMatrix: the global size (rows, cols) or the row or column partition "
      "(length, fingerprint)");
  collective_try(comm_, "kelp::dist::DistCrsMatrix", [&] { impl::check_local_rows(in, rank_, size_); });
  global_rows_ = in.global_rows;
  global_cols_ = in.global_cols;
  rows_ = in.rows;
  cols_ = in.cols;

  // Split the entries: owned columns keep their local number, the others become ghosts.
  const GlobalOrdinal col_begin = cols_.begin(rank_), col_end = cols_.end(rank_);
  const auto n = static_cast<Ordinal>(rows_.size(rank_));
  for (const GlobalOrdinal c : in.col_index) {
    if (c < col_begin || c >= col_end) ghost_global_.push_back(c);
  }
  std::sort(ghost_global_.begin(), ghost_global_.end());
  ghost_global_.erase(std::unique(ghost_global_.begin(), ghost_global_.end()), ghost_global_.end());
  collective_try(comm_, "kelp::dist::DistCrsMatrix", [&] {
    KELP_REQUIRE(ghost_global_.size() <= static_cast<std::size_t>(std::numeric_limits<Ordinal>::max()),
                 NotSupported, "kelp::dist::DistCrsMatrix: " << ghost_global_.size() << " ghost columns exceed Ordinal");
  });
  impl::HostBlock<Scalar> local, ghost;
  // The ghost block keeps only its non-empty rows (ghost_rows_host_ says which local row each is).
  local.num_rows = n;
  local.num_cols = static_cast<Ordinal>(col_end - col_begin);
  ghost.num_cols = static_cast<Ordinal>(ghost_global_.size());
  std::vector<std::pair<Ordinal, Scalar>> row_local, row_ghost;
  for (Ordinal i = 0; i < n; ++i) {
    row_local.clear();
    row_ghost.clear();
    for (auto e = static_cast<std::size_t>(in.row_map[static_cast<std::size_t>(i)]);
         e < static_cast<std::size_t>(in.row_map[static_cast<std::size_t>(i) + 1]); ++e) {
      const GlobalOrdinal c = in.col_index[e];
      if (c >= col_begin && c < col_end) {
        row_local.emplace_back(static_cast<Ordinal>(c - col_begin), in.values[e]);
      } else {
        const auto g = std::lower_bound(ghost_global_.begin(), ghost_global_.end(), c) - ghost_global_.begin();
        row_ghost.emplace_back(static_cast<Ordinal>(g), in.values[e]);
      }
    }
    // Sorted rows: the order the serial reader produces, and what the SpMV kernels expect.
    const auto by_column = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(row_local.begin(), row_local.end(), by_column);
    std::stable_sort(row_ghost.begin(), row_ghost.end(), by_column);
    for (const auto& [c, v] : row_local) local.entries.push_back(c), local.values.push_back(v);
    for (const auto& [c, v] : row_ghost) ghost.entries.push_back(c), ghost.values.push_back(v);
    local.row_map.push_back(static_cast<Offset>(local.entries.size()));
    if (!row_ghost.empty()) {
      ghost.row_map.push_back(static_cast<Offset>(ghost.entries.size()));
      ghost_rows_host_.push_back(i);
    }
  }
  ghost.num_rows = static_cast<Ordinal>(ghost_rows_host_.size());

  // Receive side: the ghosts of each owner form one range (they are sorted by global index).
  std::vector<int> recv_counts(static_cast<std::size_t>(size_), 0), send_counts(static_cast<std::size_t>(size_), 0);
  for (const GlobalOrdinal c : ghost_global_) ++recv_counts[static_cast<std::size_t>(cols_.owner(c))];
  for (int p = 0; p < size_; ++p) {
    if (recv_counts[static_cast<std::size_t>(p)] == 0) continue;
    plan_.recv_ranks.push_back(p);
    plan_.recv_offsets.push_back(plan_.recv_offsets.back() + recv_counts[static_cast<std::size_t>(p)]);
  }
  // Send side: each owner learns which of its entries each neighbour needs.
  MPI_Alltoall(recv_counts.data(), 1, MPI_INT, send_counts.data(), 1, MPI_INT, comm_);
  std::vector<int> recv_displs(static_cast<std::size_t>(size_) + 1, 0), send_displs(static_cast<std::size_t>(size_) + 1, 0);
  for (int p = 0; p < size_; ++p) {
    recv_displs[static_cast<std::size_t>(p) + 1] = recv_displs[static_cast<std::size_t>(p)] + recv_counts[static_cast<std::size_t>(p)];
    send_displs[static_cast<std::size_t>(p) + 1] = send_displs[static_cast<std::size_t>(p)] + send_counts[static_cast<std::size_t>(p)];
  }
  std::vector<GlobalOrdinal> wanted(static_cast<std::size_t>(send_displs.back()));
  MPI_Alltoallv(ghost_global_.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T, wanted.data(),
                send_counts.data(), send_displs.data(), MPI_INT64_T, comm_);
  for (int p = 0; p < size_; ++p) {
    if (send_counts[static_cast<std::size_t>(p)] == 0) continue;
    plan_.send_ranks.push_back(p);
    plan_.send_offsets.push_back(plan_.send_offsets.back() + send_counts[static_cast<std::size_t>(p)]);
  }
  plan_.send_local_host.resize(wanted.size());
  for (std::size_t s = 0; s < wanted.size(); ++s) {
    plan_.send_local_host[s] = static_cast<Ordinal>(wanted[s] - col_begin);
  }
  plan_.send_local = Kokkos::View<Ordinal*, Device>("kelp::dist::HaloPlan::send_local", wanted.size());
  auto send_local_h = Kokkos::create_mirror_view(plan_.send_local);
  for (std::size_t s = 0; s < wanted.size(); ++s) send_local_h(s) = plan_.send_local_host[s];
  Kokkos::deep_copy(plan_.send_local, send_local_h);

  ghost_rows_ = Kokkos::View<Ordinal*, Device>("kelp::dist::DistCrsMatrix::ghost_rows", ghost_rows_host_.size());
  auto ghost_rows_h = Kokkos::create_mirror_view(ghost_rows_);
  for (std::size_t r = 0; r < ghost_rows_host_.size(); ++r) ghost_rows_h(r) = ghost_rows_host_[r];
  Kokkos::deep_copy(ghost_rows_, ghost_rows_h);

  local_ = impl::to_device<Scalar, Device>(local, "kelp::dist::DistCrsMatrix::local");
  ghost_ = impl::to_device<Scalar, Device>(ghost, "kelp::dist::DistCrsMatrix::ghost");
  local_t_ = impl::to_device<Scalar, Device>(impl::transpose_host(local), "kelp::dist::DistCrsMatrix::local_t");
  // The transposed ghost block has one row per ghost (no empty-row sweep there); its columns go
  // back from compressed rows to local rows, so the reverse product reads x directly. The row
  // list is increasing, so the mapped columns stay sorted.
  auto ghost_t = impl::transpose_host(ghost);
  ghost_t.num_cols = n;
  for (Ordinal& c : ghost_t.entries) c = ghost_rows_host_[static_cast<std::size_t>(c)];
  ghost_t_ = impl::to_device<Scalar, Device>(ghost_t, "kelp::dist::DistCrsMatrix::ghost_t");
  // The statistics rule, not timing: the algorithm (and so the rounding) must not depend on a
  // timing run, or results would differ from run to run.
  auto make_handle = [](const matrix_type& A) {
    auto h = std::make_unique<kernels::SpmvHandle<matrix_type>>();
    h->disable_timing();
    h->analyze(A);
    return h;
  };
  local_handle_ = make_handle(local_);
  ghost_handle_ = make_handle(ghost_);
  local_t_handle_ = make_handle(local_t_);
  ghost_t_handle_ = make_handle(ghost_t_);
}

template <class Scalar, class Device>
void DistCrsMatrix<Scalar, Device>::reserve(std::size_t k) const {
  if (k <= capacity_k_) return;
  slots_ = vector_type("kelp::dist::DistCrsMatrix::slots", static_cast<std::size_t>(plan_.num_send()) * k);
  ghosts_ = vector_type("kelp::dist::DistCrsMatrix::ghosts", static_cast<std::size_t>(num_ghosts()) * k);
  ghost_y_ = vector_type("kelp::dist::DistCrsMatrix::ghost_y", static_cast<std::size_t>(num_ghost_rows()) * k);
  if constexpr (impl::HaloStaging<Scalar, Device>::separate) {
    slots_host_ = staging_type("kelp::dist::DistCrsMatrix::slots_staging", slots_.extent(0));
    ghosts_host_ = staging_type("kelp::dist::DistCrsMatrix::ghosts_staging", ghosts_.extent(0));
  } else {
    slots_host_ = slots_;
    ghosts_host_ = ghosts_;
  }
  capacity_k_ = k;
}

template <class Scalar, class Device>
double DistCrsMatrix<Scalar, Device>::mark() const {
  if (!timing_) return 0;
  exec_.fence();
  return MPI_Wtime();
}

template <class Scalar, class Device>
template <class XView, class YView>
void DistCrsMatrix<Scalar, Device>::check_shapes(const XView& x, const YView& y, OperatorMode mode) const {
  const bool transposed = is_transposed(mode);
  const long long in = transposed ? num_local_rows() : num_local_cols();
  const long long out = transposed ? num_local_cols() : num_local_rows();
  KELP_REQUIRE(static_cast<long long>(x.extent(0)) == in && static_cast<long long>(y.extent(0)) == out,
               DimensionMismatch,
               "kelp::dist::DistCrsMatrix::apply: dimension mismatch on rank "
                   << rank_ << ": the local block is " << num_local_rows() << " x " << num_local_cols()
                   << " (mode " << to_string(mode) << "), x has " << x.extent(0) << " rows, y "
                   << y.extent(0) << "; expected " << in << " and " << out);
  if constexpr (XView::rank == 2) {
    KELP_REQUIRE(x.extent(1) == y.extent(1), DimensionMismatch,
                 "kelp::dist::DistCrsMatrix::apply: X has " << x.extent(1) << " columns, Y has "
                                                            << y.extent(1));
  }
}

template <class Scalar, class Device>
void DistCrsMatrix<Scalar, Device>::apply(const_vector_type x, vector_type y, Scalar alpha, Scalar beta,
                                          OperatorMode mode) const {
  check_shapes(x, y, mode);
  if (mode == OperatorMode::no_transpose) {
    apply_forward(x, y, alpha, beta, 1);
  } else {
    apply_reverse(x, y, alpha, beta, mode == OperatorMode::conjugate_transpose, 1);
  }
}

template <class Scalar, class Device>
void DistCrsMatrix<Scalar, Device>::apply(const_multivector_type X, multivector_type Y, Scalar alpha,
                                          Scalar beta, OperatorMode mode) const {
  check_shapes(X, Y, mode);
  if (X.extent(1) == 0) return;
  if (mode == OperatorMode::no_transpose) {
    apply_forward(X, Y, alpha, beta, X.extent(1));
  } else {
    apply_reverse(X, Y, alpha, beta, mode == OperatorMode::conjugate_transpose, X.extent(1));
  }
}

namespace impl {
/// The first rows * k entries of a row-major buffer as a vector (k = 1) or a rows x k
/// LayoutRight multi-vector, matching the rank of V.
template <int Rank, class Scalar, class Device>
auto buffer_as(const VectorView<Scalar, Device>& buffer, std::size_t rows, std::size_t k) {
  if constexpr (Rank == 1) {
    return Kokkos::subview(buffer, std::make_pair(std::size_t(0), rows));
  } else {
    return Kokkos::View<Scalar**, Kokkos::LayoutRight, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        buffer.data(), rows, k);
  }
}
}  // namespace impl

namespace impl {
/// MPI_Isend / MPI_Irecv of one message per neighbour: neighbour p's part of buffer is
/// [offsets[p] * k, offsets[p + 1] * k).
template <class Buffer>
void post_messages(bool send, const Buffer& buffer, const std::vector<int>& ranks,
                   const std::vector<Ordinal>& offsets, std::size_t k, MPI_Datatype type, int tag,
                   MPI_Comm comm, std::vector<MPI_Request>& requests) {
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    auto* data = buffer.data() + static_cast<std::size_t>(offsets[p]) * k;
    const auto count = static_cast<int>(static_cast<std::size_t>(offsets[p + 1] - offsets[p]) * k);
    requests.emplace_back();
    if (send) {
      MPI_Isend(data, count, type, ranks[p], tag, comm, &requests.back());
    } else {
      MPI_Irecv(data, count, type, ranks[p], tag, comm, &requests.back());
    }
  }
}

/// The first n entries of one staging buffer copied to another, asynchronously on exec; nothing
/// when the staging buffer is the device buffer itself (host builds).
template <bool Separate, class Exec, class Dst, class Src>
void stage(const Exec& exec, const Dst& dst, const Src& src, std::size_t n) {
  if constexpr (Separate) {
    const auto range = std::make_pair(std::size_t(0), n);
    Kokkos::deep_copy(exec, Kokkos::subview(dst, range), Kokkos::subview(src, range));
  } else {
    (void)exec, (void)dst, (void)src, (void)n;
  }
}
}  // namespace impl

template <class Scalar, class Device>
template <class XView, class YView>
void DistCrsMatrix<Scalar, Device>::apply_forward(const XView& x, const YView& y, Scalar alpha, Scalar beta,
                                                  std::size_t k) const {
  using Exec = execution_space;
  constexpr bool separate = impl::HaloStaging<Scalar, Device>::separate;
  const MPI_Datatype type = impl::mpi_type<Scalar>();
  constexpr int tag = 1414;
  reserve(k);
  const double t0 = mark();
  requests_.clear();
  const auto nsend = static_cast<std::size_t>(plan_.num_send());
  const auto nghost = static_cast<std::size_t>(num_ghosts());
  if (nsend > 0) {
    const auto X = kelp::impl::as_columns(x);
    Kokkos::parallel_for("kelp::dist::DistCrsMatrix::pack", Kokkos::RangePolicy<Exec>(exec_, 0, nsend),
                         impl::PackHalo<decltype(X), vector_type, decltype(plan_.send_local)>{X, slots_, plan_.send_local, k});
    impl::stage<separate>(exec_, slots_host_, slots_, nsend * k);
  }
  // The outgoing halo is complete before MPI reads it, and (same stream) the previous
  // product's copy out of the receive staging buffer is done before receives overwrite it.
  if (nsend > 0 || (separate && nghost > 0)) exec_.fence();
  impl::post_messages(false, ghosts_host_, plan_.recv_ranks, plan_.recv_offsets, k, type, tag, comm_, requests_);
  impl::post_messages(true, slots_host_, plan_.send_ranks, plan_.send_offsets, k, type, tag, comm_, requests_);
  const double t1 = mark();
  kernels::spmv(exec_, *local_handle_, kernels::SpmvMode::no_transpose, alpha, local_, x, beta, y);
  const double t2 = mark();
  // On a GPU the local product is still running here: the messages overlap it.
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  const double t3 = mark();
  const auto nrows = static_cast<std::size_t>(num_ghost_rows());
  if (nrows > 0) {
    // Queued behind the local product on the same instance: no host wait.
    impl::stage<separate>(exec_, ghosts_, ghosts_host_, nghost * k);
    const auto xg = impl::buffer_as<XView::rank, Scalar, Device>(ghosts_, nghost, k);
    const auto z = impl::buffer_as<XView::rank, Scalar, Device>(ghost_y_, nrows, k);
    kernels::spmv(exec_, *ghost_handle_, kernels::SpmvMode::no_transpose, alpha, ghost_, xg, Scalar(0), z);
    const auto Y = kelp::impl::as_columns(y);
    Kokkos::parallel_for("kelp::dist::DistCrsMatrix::add_ghost_rows", Kokkos::RangePolicy<Exec>(exec_, 0, nrows),
                         impl::AddHalo<decltype(Y), vector_type, decltype(ghost_rows_)>{Y, ghost_y_, ghost_rows_, k});
  }
  if (timing_) {
    const double t4 = mark();
    times_.pack += t1 - t0, times_.local += t2 - t1, times_.wait += t3 - t2, times_.ghost += t4 - t3;
    times_.total += t4 - t0, ++times_.products;
  }
}

template <class Scalar, class Device>
template <class XView, class YView>
void DistCrsMatrix<Scalar, Device>::apply_reverse(const XView& x, const YView& y, Scalar alpha, Scalar beta,
                                                  bool conjugate, std::size_t k) const {
  using Exec = execution_space;
  constexpr bool separate = impl::HaloStaging<Scalar, Device>::separate;
  const MPI_Datatype type = impl::mpi_type<Scalar>();
  constexpr int tag = 1415;
  const auto op = conjugate ? kernels::SpmvMode::conjugate : kernels::SpmvMode::no_transpose;
  reserve(k);
  const double t0 = mark();
  requests_.clear();
  const auto nghost = static_cast<std::size_t>(num_ghosts());
  const auto nsend = static_cast<std::size_t>(plan_.num_send());
  if (nghost > 0) {
    // z = alpha op(G)^T x, one row per ghost column, row-major: each owner's part is contiguous.
    const auto z = impl::buffer_as<XView::rank, Scalar, Device>(ghosts_, nghost, k);
    kernels::spmv(exec_, *ghost_t_handle_, op, alpha, ghost_t_, x, Scalar(0), z);
    impl::stage<separate>(exec_, ghosts_host_, ghosts_, nghost * k);
  }
  // As in apply_forward: outgoing data complete, the receive staging buffer free again.
  if (nghost > 0 || (separate && nsend > 0)) exec_.fence();
  // Contributions to our columns arrive from the ranks we would send x entries to.
  impl::post_messages(false, slots_host_, plan_.send_ranks, plan_.send_offsets, k, type, tag, comm_, requests_);
  impl::post_messages(true, ghosts_host_, plan_.recv_ranks, plan_.recv_offsets, k, type, tag, comm_, requests_);
  const double t1 = mark();
  kernels::spmv(exec_, *local_t_handle_, op, alpha, local_t_, x, beta, y);
  const double t2 = mark();
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  const double t3 = mark();
  if (nsend > 0) {
    impl::stage<separate>(exec_, slots_, slots_host_, nsend * k);
    const auto Y = kelp::impl::as_columns(y);
    // Neighbour by neighbour in rank order: a fixed summation order, no atomics.
    for (std::size_t p = 0; p < plan_.send_ranks.size(); ++p) {
      Kokkos::parallel_for("kelp::dist::DistCrsMatrix::add_halo",
                           Kokkos::RangePolicy<Exec>(exec_, static_cast<std::size_t>(plan_.send_offsets[p]),
                                                     static_cast<std::size_t>(plan_.send_offsets[p + 1])),
                           impl::AddHalo<decltype(Y), vector_type, decltype(plan_.send_local)>{Y, slots_, plan_.send_local, k});
    }
  }
  if (timing_) {
    const double t4 = mark();
    times_.pack += t1 - t0, times_.local += t2 - t1, times_.wait += t3 - t2, times_.ghost += t4 - t3;
    times_.total += t4 - t0, ++times_.products;
  }
}

#define KELP_DIST_CRS_MATRIX_ETI(PREFIX, S) \
  PREFIX template class DistCrsMatrix<S>;   \
  PREFIX template class DistOperator<S>;
KELP_ETI_FOR_EACH_SCALAR(KELP_DIST_CRS_MATRIX_ETI, extern)

}  // namespace kelp::dist

#pragma once
/// Additive Schwarz with overlap over the ranks of a distributed matrix: each rank's subdomain is
/// its rows plus `overlap` layers of neighbouring rows (distributed/overlap_subdomain.hpp), with
/// any local preconditioner or solver M_i on the subdomain matrix A(S_i, S_i).
///
///   restricted (RAS):  y = sum_i R0_i^T M_i R_i x   (each rank keeps its owned rows of M_i R_i x)
///   symmetric  (AS):   y = sum_i R_i^T  M_i R_i x   (overlap results are added back to their owners)
/// R_i takes x's entries on S_i (a halo exchange on the subdomain's plan), R0_i^T puts the owned
/// part back. RAS needs one exchange per apply and converges faster with GMRES / BiCGSTAB; AS
/// needs a second (reverse) exchange and is symmetric when every M_i is (Jacobi, block Jacobi,
/// symmetric Gauss-Seidel), so it is the one for CG. Overlap 0 is block Jacobi over the ranks:
/// the subdomain matrix is the local block and the result is bitwise that of M_i on it.
///
/// Setup follows the preconditioner contract: setup_symbolic builds the subdomain (pattern, the
/// plans: collective) and the local preconditioner's symbolic phase; setup_numeric moves only
/// values along the stored plan and calls the local numeric phase. The local work is wrapped in
/// collective_try, so a failure on one rank (a zero pivot) throws the same error on every rank.
///
/// apply: pack the owned entries neighbours hold (device kernel), stage, post receives and
/// sends, copy x into the owned range of x_sub while the messages fly, wait, stage the overlap
/// in; z_sub = M_i x_sub; (AS: send z_sub's overlap to the owners, who add the contributions
/// neighbour by neighbour in rank order: a fixed order, no atomics); y = alpha z_owned + beta y.
///
/// Example:
///   dist::AdditiveSchwarz<double> M({/*overlap*/ 1, dist::SchwarzVariant::restricted},
///       [](const CrsMatrix<double>&) { return std::make_shared<precond::Jacobi<CrsMatrix<double>>>(); });
///   M.setup(A);                                         // A: dist::DistCrsMatrix<double>
///   solvers::Gmres<double, DefaultDevice, dist::MpiReduction> gmres(op, M_ptr, params, reduce);

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/overlap_subdomain.hpp"
#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::dist {

enum class SchwarzVariant {
  restricted,  ///< RAS: each rank keeps its owned rows (one exchange; GMRES, BiCGSTAB)
  symmetric    ///< AS: overlap results added to their owners (two exchanges; symmetric, for CG)
};

inline const char* to_string(SchwarzVariant v) { return v == SchwarzVariant::restricted ? "restricted" : "symmetric"; }

struct AdditiveSchwarzParams {
  int overlap = 1;  ///< layers of neighbouring rows (0: block Jacobi over the ranks)
  SchwarzVariant variant = SchwarzVariant::restricted;
};

namespace impl {
/// z(offset + index(s)) += slots(s) over one neighbour's slots (no index repeats there).
template <class Z, class Slots, class Index>
struct AddSlots {
  Z z;
  Slots slots;
  Index index;
  std::size_t offset;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t s) const {
    z(offset + static_cast<std::size_t>(index(s))) += slots(s);
  }
};
/// slots(s) = x(index(s)).
template <class X, class Slots, class Index>
struct GatherSlots {
  X x;
  Slots slots;
  Index index;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t s) const {
    slots(s) = x(static_cast<std::size_t>(index(s)));
  }
};
}  // namespace impl

template <class Scalar, class Device = DefaultDevice>
class AdditiveSchwarz : public Operator<Scalar, Device> {
 public:
  using Base = Operator<Scalar, Device>;
  using execution_space = typename Device::execution_space;
  using matrix_type = CrsMatrix<Scalar, Ordinal, Offset, Device>;
  using local_type = precond::Preconditioner<matrix_type>;
  using vector_type = VectorView<Scalar, Device>;
  /// Makes the local preconditioner for a subdomain matrix, not set up (setup_symbolic and
  /// setup_numeric run it). Called on every rank inside collective_try.
  using LocalFactory = std::function<std::shared_ptr<local_type>(const matrix_type& subdomain)>;

  /// @throws InvalidArgument for overlap < 0 or an empty factory (local: this rank only)
  AdditiveSchwarz(AdditiveSchwarzParams params, LocalFactory make_local);

  /// Collective: builds the subdomain and its plans, makes the local preconditioner and runs its
  /// symbolic phase. @throws (on every rank alike) the subdomain's errors and any local error
  void setup_symbolic(const DistCrsMatrix<Scalar, Device>& A);
  /// Collective: refills the subdomain values from A (same pattern) and runs the local numeric
  /// phase. @throws (on every rank alike) InvalidState before setup_symbolic or when A's pattern
  /// changed; any local error (a zero pivot), prefixed by the failing rank
  void setup_numeric(const DistCrsMatrix<Scalar, Device>& A);
  void setup(const DistCrsMatrix<Scalar, Device>& A) {
    setup_symbolic(A);
    setup_numeric(A);
  }
  bool is_set_up() const { return numeric_done_; }

  Ordinal num_rows() const override { return subdomain_ ? subdomain_->num_owned() : 0; }
  Ordinal num_cols() const override { return num_rows(); }
  std::string summary() const override;
  bool is_variable() const override { return local_ != nullptr && local_->is_variable(); }

  const AdditiveSchwarzParams& params() const { return params_; }
  /// Valid after setup_symbolic.
  const OverlapSubdomain<Scalar, Device>& subdomain() const;
  const matrix_type& subdomain_matrix() const { return sub_; }
  const local_type& local_preconditioner() const;

 protected:
  void check_ready() const override;
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode mode) const override;

 private:
  using staging_type = typename impl::HaloStaging<Scalar, Device>::view_type;
  void gather_overlap(typename Base::const_vector_type x) const;
  void add_overlap_back() const;

  AdditiveSchwarzParams params_;
  LocalFactory make_local_;
  std::unique_ptr<OverlapSubdomain<Scalar, Device>> subdomain_;
  std::shared_ptr<local_type> local_;
  matrix_type sub_;
  Kokkos::View<Ordinal*, Device> send_local_;
  execution_space exec_;
  bool numeric_done_ = false;
  // Work vectors and staging behind the const apply (not thread safe).
  mutable vector_type x_sub_, z_sub_, slots_;
  mutable staging_type x_stage_, z_stage_, slots_stage_;
  mutable std::vector<MPI_Request> requests_;
};

// ------------------------------------------------------------------------------------------------
// Implementation (compiled once per scalar in distributed/eti/).

template <class Scalar, class Device>
AdditiveSchwarz<Scalar, Device>::AdditiveSchwarz(AdditiveSchwarzParams params, LocalFactory make_local)
    : params_(params), make_local_(std::move(make_local)) {
  KELP_REQUIRE(params_.overlap >= 0, InvalidArgument,
               "kelp::dist::AdditiveSchwarz: overlap is " << params_.overlap << ", expected >= 0");
  KELP_REQUIRE(static_cast<bool>(make_local_), InvalidArgument,
               "kelp::dist::AdditiveSchwarz: the local preconditioner factory is empty");
}

template <class Scalar, class Device>
std::string AdditiveSchwarz<Scalar, Device>::summary() const {
  return std::string("additive Schwarz {overlap: ") + std::to_string(params_.overlap) +
         ", variant: " + to_string(params_.variant) + ", local: " + (local_ ? local_->summary() : "not set up") + "}";
}

template <class Scalar, class Device>
const OverlapSubdomain<Scalar, Device>& AdditiveSchwarz<Scalar, Device>::subdomain() const {
  KELP_REQUIRE(subdomain_ != nullptr, InvalidState,
               "kelp::dist::AdditiveSchwarz::subdomain: called before setup_symbolic");
  return *subdomain_;
}

template <class Scalar, class Device>
const typename AdditiveSchwarz<Scalar, Device>::local_type& AdditiveSchwarz<Scalar, Device>::local_preconditioner() const {
  KELP_REQUIRE(local_ != nullptr, InvalidState,
               "kelp::dist::AdditiveSchwarz::local_preconditioner: called before setup_symbolic");
  return *local_;
}

template <class Scalar, class Device>
void AdditiveSchwarz<Scalar, Device>::check_ready() const {
  KELP_REQUIRE(numeric_done_, InvalidState,
               "kelp::dist::AdditiveSchwarz::apply: called before setup_numeric (call setup, or "
               "setup_symbolic then setup_numeric)");
}

template <class Scalar, class Device>
void AdditiveSchwarz<Scalar, Device>::setup_symbolic(const DistCrsMatrix<Scalar, Device>& A) {
  constexpr const char* where = "kelp::dist::AdditiveSchwarz::setup_symbolic";
  numeric_done_ = false;
  local_.reset();
  subdomain_ = std::make_unique<OverlapSubdomain<Scalar, Device>>(A, params_.overlap);
  const auto& S = *subdomain_;
  // The subdomain pattern on the device, values zero until setup_numeric.
  impl::HostBlock<Scalar> block;
  block.num_rows = block.num_cols = S.num_rows();
  block.row_map = S.row_map();
  block.entries = S.entries();
  block.values.assign(S.entries().size(), Scalar(0));
  sub_ = impl::to_device<Scalar, Device>(block, "kelp::dist::AdditiveSchwarz::subdomain");
  const auto& plan = S.plan();
  send_local_ = Kokkos::View<Ordinal*, Device>("kelp::dist::AdditiveSchwarz::send_local", plan.send_local.size());
  auto send_local_h = Kokkos::create_mirror_view(send_local_);
  for (std::size_t s = 0; s < plan.send_local.size(); ++s) send_local_h(s) = plan.send_local[s];
  Kokkos::deep_copy(send_local_, send_local_h);
  const auto n_sub = static_cast<std::size_t>(S.num_rows());
  x_sub_ = vector_type("kelp::dist::AdditiveSchwarz::x_sub", n_sub);
  z_sub_ = vector_type("kelp::dist::AdditiveSchwarz::z_sub", n_sub);
  slots_ = vector_type("kelp::dist::AdditiveSchwarz::slots", plan.send_local.size());
  if constexpr (impl::HaloStaging<Scalar, Device>::separate) {
    x_stage_ = staging_type("kelp::dist::AdditiveSchwarz::x_stage", n_sub);
    z_stage_ = staging_type("kelp::dist::AdditiveSchwarz::z_stage", n_sub);
    slots_stage_ = staging_type("kelp::dist::AdditiveSchwarz::slots_stage", slots_.extent(0));
  } else {
    x_stage_ = x_sub_;
    z_stage_ = z_sub_;
    slots_stage_ = slots_;
  }
  collective_try(A.communicator(), where, [&] {
    local_ = make_local_(sub_);
    KELP_REQUIRE(local_ != nullptr, InvalidArgument, where << ": the local preconditioner factory returned null");
    local_->setup_symbolic(sub_);
  });
}

template <class Scalar, class Device>
void AdditiveSchwarz<Scalar, Device>::setup_numeric(const DistCrsMatrix<Scalar, Device>& A) {
  constexpr const char* where = "kelp::dist::AdditiveSchwarz::setup_numeric";
  KELP_DIST_REQUIRE_ALL(A.communicator(), subdomain_ != nullptr && local_ != nullptr, InvalidState, where,
                        "called before setup_symbolic");
  numeric_done_ = false;
  const std::vector<Scalar> values = subdomain_->values(A);
  // In place: the local preconditioner keeps seeing the same matrix (same pattern).
  auto vh = Kokkos::create_mirror_view(sub_.values());
  for (std::size_t t = 0; t < values.size(); ++t) vh(t) = values[t];
  Kokkos::deep_copy(sub_.values(), vh);
  collective_try(A.communicator(), where, [&] { local_->setup_numeric(sub_); });
  numeric_done_ = true;
}

template <class Scalar, class Device>
void AdditiveSchwarz<Scalar, Device>::gather_overlap(typename Base::const_vector_type x) const {
  using Exec = execution_space;
  constexpr bool separate = impl::HaloStaging<Scalar, Device>::separate;
  const auto& S = *subdomain_;
  const auto& plan = S.plan();
  const MPI_Comm comm = S.communicator();
  const MPI_Datatype type = impl::mpi_type<Scalar>();
  constexpr int tag = 1416;
  const auto nsend = static_cast<std::size_t>(plan.num_send());
  const auto n = static_cast<std::size_t>(S.num_owned()), lo = static_cast<std::size_t>(S.owned_begin());
  const auto n_sub = static_cast<std::size_t>(S.num_rows());
  requests_.clear();
  if (nsend > 0) {
    Kokkos::parallel_for("kelp::dist::AdditiveSchwarz::pack", Kokkos::RangePolicy<Exec>(exec_, 0, nsend),
                         impl::GatherSlots<decltype(x), vector_type, decltype(send_local_)>{x, slots_, send_local_});
    impl::stage<separate>(exec_, slots_stage_, slots_, nsend);
    exec_.fence();  // the outgoing entries are complete before MPI reads them
  }
  for (std::size_t p = 0; p < plan.recv_ranks.size(); ++p) {
    requests_.emplace_back();
    MPI_Irecv(x_stage_.data() + plan.recv_begin[p], static_cast<int>(plan.recv_count[p]), type, plan.recv_ranks[p], tag,
              comm, &requests_.back());
  }
  for (std::size_t p = 0; p < plan.send_ranks.size(); ++p) {
    requests_.emplace_back();
    MPI_Isend(slots_stage_.data() + plan.send_offsets[p], static_cast<int>(plan.send_offsets[p + 1] - plan.send_offsets[p]),
              type, plan.send_ranks[p], tag, comm, &requests_.back());
  }
  // The owned part while the messages fly.
  Kokkos::deep_copy(exec_, Kokkos::subview(x_sub_, std::make_pair(lo, lo + n)), x);
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if constexpr (separate) {
    const auto below = std::make_pair(std::size_t(0), lo), above = std::make_pair(lo + n, n_sub);
    Kokkos::deep_copy(exec_, Kokkos::subview(x_sub_, below), Kokkos::subview(x_stage_, below));
    Kokkos::deep_copy(exec_, Kokkos::subview(x_sub_, above), Kokkos::subview(x_stage_, above));
  }
  exec_.fence();  // the local preconditioner runs on its own instance
}

template <class Scalar, class Device>
void AdditiveSchwarz<Scalar, Device>::add_overlap_back() const {
  using Exec = execution_space;
  constexpr bool separate = impl::HaloStaging<Scalar, Device>::separate;
  const auto& S = *subdomain_;
  const auto& plan = S.plan();
  const MPI_Comm comm = S.communicator();
  const MPI_Datatype type = impl::mpi_type<Scalar>();
  constexpr int tag = 1417;
  const auto nsend = static_cast<std::size_t>(plan.num_send());
  const auto n = static_cast<std::size_t>(S.num_owned()), lo = static_cast<std::size_t>(S.owned_begin());
  const auto n_sub = static_cast<std::size_t>(S.num_rows());
  if constexpr (separate) {
    const auto below = std::make_pair(std::size_t(0), lo), above = std::make_pair(lo + n, n_sub);
    Kokkos::deep_copy(exec_, Kokkos::subview(z_stage_, below), Kokkos::subview(z_sub_, below));
    Kokkos::deep_copy(exec_, Kokkos::subview(z_stage_, above), Kokkos::subview(z_sub_, above));
  }
  Kokkos::fence();  // z_sub (from the local preconditioner's instance) is complete
  requests_.clear();
  // The reverse of gather_overlap: contributions to our rows come from the ranks we sent x to.
  for (std::size_t p = 0; p < plan.send_ranks.size(); ++p) {
    requests_.emplace_back();
    MPI_Irecv(slots_stage_.data() + plan.send_offsets[p], static_cast<int>(plan.send_offsets[p + 1] - plan.send_offsets[p]),
              type, plan.send_ranks[p], tag, comm, &requests_.back());
  }
  for (std::size_t p = 0; p < plan.recv_ranks.size(); ++p) {
    requests_.emplace_back();
    MPI_Isend(z_stage_.data() + plan.recv_begin[p], static_cast<int>(plan.recv_count[p]), type, plan.recv_ranks[p], tag,
              comm, &requests_.back());
  }
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (nsend == 0) return;
  impl::stage<separate>(exec_, slots_, slots_stage_, nsend);
  // Neighbour by neighbour in rank order: a fixed summation order, no atomics.
  for (std::size_t p = 0; p < plan.send_ranks.size(); ++p) {
    Kokkos::parallel_for("kelp::dist::AdditiveSchwarz::add_overlap",
                         Kokkos::RangePolicy<Exec>(exec_, static_cast<std::size_t>(plan.send_offsets[p]),
                                                   static_cast<std::size_t>(plan.send_offsets[p + 1])),
                         impl::AddSlots<vector_type, vector_type, decltype(send_local_)>{z_sub_, slots_, send_local_, lo});
  }
}

template <class Scalar, class Device>
void AdditiveSchwarz<Scalar, Device>::apply_impl(typename Base::const_vector_type x, typename Base::vector_type y,
                                                 Scalar alpha, Scalar beta, OperatorMode) const {
  const auto& S = *subdomain_;
  const auto n = static_cast<std::size_t>(S.num_owned()), lo = static_cast<std::size_t>(S.owned_begin());
  gather_overlap(x);
  local_->apply(x_sub_, z_sub_);
  if (params_.variant == SchwarzVariant::symmetric) add_overlap_back();
  kernels::axpby(exec_, alpha, Kokkos::subview(z_sub_, std::make_pair(lo, lo + n)), beta, y);
}

#define KELP_DIST_ADDITIVE_SCHWARZ_ETI(PREFIX, S) \
  PREFIX template class OverlapSubdomain<S>;      \
  PREFIX template class AdditiveSchwarz<S>;
KELP_ETI_FOR_EACH_SCALAR(KELP_DIST_ADDITIVE_SCHWARZ_ETI, extern)

}  // namespace kelp::dist

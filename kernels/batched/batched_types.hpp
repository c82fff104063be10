#pragma once
/// Types shared by the batched small dense kernels (kernels/batched/).
///
/// A batch of m x n matrices is a rank-3 view A(problem, row, column), LayoutRight, so that each
/// problem is one contiguous block (what one CPU thread wants). A batch of vectors is a rank-2
/// view x(problem, row); pivots are piv(problem, step); the status is one int per problem.

#include <string>
#include <vector>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::kernels::batched {

/// Who works on one problem (the three flavours of the Kokkos Kernels batched interface):
///   serial:      one thread per problem (RangePolicy over the batch);
///   team:        one team per problem, its threads split the rows;
///   team_vector: one team per problem, threads split the rows and vector lanes the columns.
enum class Mode { serial, team, team_vector };

enum class Uplo { lower, upper };
enum class Diag { unit, non_unit };

inline const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::serial: return "serial";
    case Mode::team: return "team";
    case Mode::team_vector: return "team_vector";
  }
  return "?";
}

template <class Scalar, class Device = DefaultDevice>
using BatchMatrices = Kokkos::View<Scalar***, Kokkos::LayoutRight, Device>;
template <class Scalar, class Device = DefaultDevice>
using BatchVectors = Kokkos::View<Scalar**, Kokkos::LayoutRight, Device>;
template <class Device = DefaultDevice>
using BatchPivots = Kokkos::View<int**, Kokkos::LayoutRight, Device>;
template <class Device = DefaultDevice>
using BatchStatus = Kokkos::View<int*, Kokkos::LayoutLeft, Device>;

/// Status codes per problem (the factorizations write them; LAPACK's info, 1-based):
///   0   success;
///   k>0 the pivot of column k (1-based) is zero or at most `tiny` in magnitude: singular;
///   k<0 the pivot of column -k is not finite (NaN or Inf in the input).
/// A failed problem is left partly factored; the solves skip nothing, so callers check first.
inline std::string describe_status(int status) {
  if (status == 0) return "ok";
  if (status > 0) return "zero pivot in column " + std::to_string(status);
  return "non-finite pivot in column " + std::to_string(-status);
}

/// The problems whose status is not 0, in increasing order (copies the status to the host).
template <class Device>
std::vector<int> failed_problems(const BatchStatus<Device>& status) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), status);
  std::vector<int> failed;
  for (std::size_t p = 0; p < host.extent(0); ++p) {
    if (host(p) != 0) failed.push_back(static_cast<int>(p));
  }
  return failed;
}

}  // namespace kelp::kernels::batched

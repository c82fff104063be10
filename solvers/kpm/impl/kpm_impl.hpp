#pragma once
/// Definitions of the KPM templates of solvers/kpm/kpm.hpp; included only by solvers/eti/kpm_*.cpp.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/kernels/blas1/norms.hpp"
#include "kelp/kernels/core/huge_pages.hpp"
#include "kelp/kernels/graph/locality_order.hpp"
#include "kelp/kernels/sparse/symmetric_permute.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "kelp/solvers/kpm/impl/kpm_fixed_width_kernel.hpp"
#include "kelp/solvers/kpm/impl/kpm_hermitian_entry.hpp"
#include "kelp/solvers/kpm/impl/kpm_kernels.hpp"
#include "kelp/solvers/kpm/impl/kpm_moment_helpers.hpp"
#include "kelp/solvers/kpm/impl/kpm_team_kernel.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "kelp/solvers/kpm/kpm_lanczos.hpp"

namespace kelp::solvers {

namespace impl {

template <class Scalar>
using KpmBlock = MultiVectorView<Scalar, Kokkos::LayoutRight>;

/// Naive KPM for one vector v (paper Fig. 3): SpMV, then axpy/scal/axpy and nrm2/dot as separate
/// kernels. Per product ~ N_nzr (S_d + S_i) + 13 S_d bytes per row.
template <class Scalar>
void moments_naive(const CrsMatrix<Scalar>& H, kernels::SpmvHandle<CrsMatrix<Scalar>>& handle,
                   const KpmScaling& s, VectorView<Scalar> v, VectorView<Scalar> w,
                   VectorView<Scalar> u, int num_moments, double* mu) {
  naive_recurrence(
      [&](const VectorView<Scalar>& x, const VectorView<Scalar>& y) {
        kernels::spmv(handle, kernels::SpmvMode::no_transpose, Scalar(1), H, x, Scalar(0), y);
      },
      s, v, w, u, num_moments, mu);
}

/// One augmented SpMV on exec; returns (<v|v>, Re <w|v>).
template <class Scalar>
void augmented_step(const CrsMatrix<Scalar>& H, const VectorView<Scalar>& v,
                    const VectorView<Scalar>& w, double alpha, double beta, double gamma,
                    double* sums) {
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  using Functor = KpmAugmentedSpmv<CrsMatrix<Scalar>, VectorView<Scalar>, VectorView<Scalar>>;
  Functor f;
  set_step_fields(f, H, alpha, beta, gamma);
  f.v = v;
  f.w = w;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> result(sums, 2);
  Kokkos::parallel_reduce("kelp::solvers::kpm(augmented)",
                          Kokkos::RangePolicy<Exec>(0, H.num_rows()), f, result);
  Exec().fence();
}

template <class Scalar>
void moments_augmented(const CrsMatrix<Scalar>& H, const KpmScaling& s, VectorView<Scalar> v,
                       VectorView<Scalar> w, int num_moments, double* mu) {
  const double a = s.half_width, b = s.center;
  double sums[2];
  augmented_step(H, v, w, 1.0 / a, -b / a, 0.0, sums);  // w = v_1 = H~ v_0
  mu[0] = sums[0];
  if (num_moments > 1) mu[1] = sums[1];
  for (int m = 1; 2 * m < num_moments; ++m) {
    std::swap(v, w);  // v = v_m, w = v_{m-1} (a pointer swap; the paper's swap)
    augmented_step(H, v, w, 2.0 / a, -2.0 * b / a, 1.0, sums);
    store_moment_pair(mu, num_moments, m, sums[0], sums[1]);
  }
}

template <class Scalar>
void blocked_step(const CrsMatrix<Scalar>& H, const KpmBlock<Scalar>& V, const KpmBlock<Scalar>& W,
                  double alpha, double beta, double gamma, double* sums) {
  // On CPUs the usual widths run with R known at compile time (kpm_fixed_width_kernel.hpp: the
  // loops over R vectorise); other widths and GPUs run the runtime-R functor below.
  if (kpm_fixed_width_step(H, V, W, alpha, beta, gamma, sums)) return;
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  using Functor = KpmBlockedAugmentedSpmmv<CrsMatrix<Scalar>, KpmBlock<Scalar>, KpmBlock<Scalar>>;
  Functor f;
  f.value_count = 2 * V.extent(1);
  set_step_fields(f, H, alpha, beta, gamma);
  f.V = V;
  f.W = W;
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> result(sums, f.value_count);
  Kokkos::parallel_reduce("kelp::solvers::kpm(blocked)", Kokkos::RangePolicy<Exec>(0, H.num_rows()),
                          f, result);
  Exec().fence();
}

/// The team kernel's launch shape and device buffers, made once per block of vectors (no
/// allocation in the moment loop); `kind` picks KpmTeamKernelNarrow, ...Wide, ...Paired or ...Quad
/// (kpm_team_kernel_kind: by R alone, on every execution space, so that host tests run the same
/// instantiation as a GPU for the same R). The 2R sums
/// of each step stay on the device, in `sums` (steps_per_copy steps x 2R), and come to the host
/// once per steps_per_copy steps: a copy per step would wait for the GPU every time (about a
/// tenth of a product at R = 32 on an H100).
template <class Scalar>
struct KpmTeamWorkspace {
  using Narrow = KpmTeamKernelNarrow<CrsMatrix<Scalar>, KpmBlock<Scalar>>;
  using Wide = KpmTeamKernelWide<CrsMatrix<Scalar>, KpmBlock<Scalar>>;
  using Paired = KpmTeamKernelPaired<CrsMatrix<Scalar>, KpmBlock<Scalar>>;
  using Quad = KpmTeamKernelQuad<CrsMatrix<Scalar>, KpmBlock<Scalar>>;
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  using Partials = typename Narrow::Partials;
  using Sums = Kokkos::View<double**, Kokkos::LayoutRight, typename CrsMatrix<Scalar>::device_type>;
  static constexpr int steps_per_copy = 256;
  KpmTeamKernelKind kind = KpmTeamKernelKind::narrow;
  KpmTeamShape shape;
  Partials partials;
  Sums sums;
  typename Sums::HostMirror sums_host;

  KpmTeamWorkspace(const CrsMatrix<Scalar>& H, int num_vectors, int num_steps) {
    kind = kpm_team_kernel_kind(num_vectors);
    switch (kind) {
      case KpmTeamKernelKind::narrow: shape = make_shape<Narrow, KpmTeamPolicyNarrow<Exec>>(H, num_vectors); break;
      case KpmTeamKernelKind::wide: shape = make_shape<Wide, KpmTeamPolicyWide<Exec>>(H, num_vectors); break;
      case KpmTeamKernelKind::paired: shape = make_shape<Paired, KpmTeamPolicyPaired<Exec>>(H, num_vectors); break;
      case KpmTeamKernelKind::quad: shape = make_shape<Quad, KpmTeamPolicyQuad<Exec>>(H, num_vectors); break;
    }
    partials = Partials("kelp::solvers::kpm::team_partials", shape.rows.league_size, 2 * num_vectors);
    sums = Sums("kelp::solvers::kpm::team_sums", std::max(1, std::min(num_steps, steps_per_copy)),
                2 * num_vectors);
    sums_host = Kokkos::create_mirror_view(sums);
  }

  template <class Functor, class Policy>
  static KpmTeamShape make_shape(const CrsMatrix<Scalar>& H, int num_vectors) {
    Functor probe;
    probe.row_map = H.row_map();
    probe.entries = H.entries();
    probe.values = H.values();
    return kpm_team_shape<Functor, Policy>(H.num_rows(), num_vectors, probe);
  }
};

/// One launch of the team kernel `Functor` with `Policy` (ws.shape was made for that pair).
template <class Functor, class Policy, class Scalar>
void launch_team_step(const CrsMatrix<Scalar>& H, const KpmBlock<Scalar>& V, const KpmBlock<Scalar>& W,
                      double alpha, double beta, double gamma, const KpmTeamWorkspace<Scalar>& ws) {
  Functor f;
  set_step_fields(f, H, alpha, beta, gamma);
  f.V = V;
  f.W = W;
  f.partials = ws.partials;
  f.num_rows = H.num_rows();
  f.team_offset = ws.shape.rows.team_offset;
  f.team_span = ws.shape.rows.team_span;
  f.row_step = ws.shape.rows.row_step;
  f.lanes = ws.shape.vector_length;
  f.scratch_level = ws.shape.scratch_level;
  Policy policy(ws.shape.rows.league_size, ws.shape.team_size, ws.shape.vector_length);
  policy.set_scratch_size(ws.shape.scratch_level, Kokkos::PerTeam(ws.shape.scratch_bytes));
  Kokkos::parallel_for("kelp::solvers::kpm(blocked team)", policy, f);
  // After the launch: Kokkos sets its cache preference at the kernel's first launch, and another
  // block width may have set another carveout since (team_occupancy.hpp).
  kelp::impl::team_kernel_prefer_l1<Functor, Policy>(ws.shape.occupancy);
}

/// blocked_step by the team kernel (kpm_team_kernel.hpp): per-team partials, then one
/// fixed-order reduction of them into row `slot` of ws.sums (on the device; nothing waits).
template <class Scalar>
void blocked_step_team(const CrsMatrix<Scalar>& H, const KpmBlock<Scalar>& V,
                       const KpmBlock<Scalar>& W, double alpha, double beta, double gamma,
                       KpmTeamWorkspace<Scalar>& ws, int slot) {
  using WS = KpmTeamWorkspace<Scalar>;
  using Exec = typename WS::Exec;
  const int R = static_cast<int>(V.extent(1));
  switch (ws.kind) {
    case KpmTeamKernelKind::narrow:
      launch_team_step<typename WS::Narrow, KpmTeamPolicyNarrow<Exec>>(H, V, W, alpha, beta, gamma, ws);
      break;
    case KpmTeamKernelKind::wide:
      launch_team_step<typename WS::Wide, KpmTeamPolicyWide<Exec>>(H, V, W, alpha, beta, gamma, ws);
      break;
    case KpmTeamKernelKind::paired:
      launch_team_step<typename WS::Paired, KpmTeamPolicyPaired<Exec>>(H, V, W, alpha, beta, gamma, ws);
      break;
    case KpmTeamKernelKind::quad:
      launch_team_step<typename WS::Quad, KpmTeamPolicyQuad<Exec>>(H, V, W, alpha, beta, gamma, ws);
      break;
  }
  using Sum = KpmSumPartials<typename WS::Partials, typename WS::Sums>;
  Kokkos::parallel_for("kelp::solvers::kpm(blocked team sums)",
                       Kokkos::TeamPolicy<Exec>(2 * R, Kokkos::AUTO), Sum{ws.partials, ws.sums, slot});
}

/// Blocked augmented KPM on the R columns of V (paper Fig. 5); mu is R x num_moments. `team`
/// picks the team kernel (GPUs) over the row kernel (CPUs). Step m (m = 0, 1, ...) gives
/// mu_{2m} and mu_{2m+1} of every vector from its two dots.
template <class Scalar>
void moments_blocked(const CrsMatrix<Scalar>& H, const KpmScaling& s, KpmBlock<Scalar> V,
                     KpmBlock<Scalar> W, int num_moments, double* mu, bool team) {
  const int R = static_cast<int>(V.extent(1));
  const double a = s.half_width, b = s.center;
  const int steps = (num_moments + 1) / 2;
  auto store = [&](int m, int c, double vv, double wv) {
    double* mu_c = mu + static_cast<std::size_t>(c) * num_moments;
    if (m > 0) {
      store_moment_pair(mu_c, num_moments, m, vv, wv);
      return;
    }
    mu_c[0] = vv;
    if (num_moments > 1) mu_c[1] = wv;
  };
  // Step 0: w = H~ v_0 (gamma = 0: W is not read); then w <- 2 H~ v - w with V and W swapped.
  auto coefficients = [&](int m) {
    return m == 0 ? std::array<double, 3>{1.0 / a, -b / a, 0.0}
                  : std::array<double, 3>{2.0 / a, -2.0 * b / a, 1.0};
  };
  if (team) {
    KpmTeamWorkspace<Scalar> ws(H, R, steps);
    const int buffer = static_cast<int>(ws.sums.extent(0));
    for (int m = 0; m < steps; ++m) {
      if (m > 0) std::swap(V, W);
      const auto k = coefficients(m);
      blocked_step_team(H, V, W, k[0], k[1], k[2], ws, m % buffer);
      if ((m + 1) % buffer != 0 && m + 1 != steps) continue;
      Kokkos::deep_copy(ws.sums_host, ws.sums);  // waits for the steps buffered so far
      for (int done = m - m % buffer; done <= m; ++done) {
        for (int c = 0; c < R; ++c) store(done, c, ws.sums_host(done % buffer, c), ws.sums_host(done % buffer, R + c));
      }
    }
    return;
  }
  std::vector<double> sums(2 * static_cast<std::size_t>(R));
  for (int m = 0; m < steps; ++m) {
    if (m > 0) std::swap(V, W);
    const auto k = coefficients(m);
    blocked_step(H, V, W, k[0], k[1], k[2], sums.data());
    for (int c = 0; c < R; ++c) store(m, c, sums[2 * c], sums[2 * c + 1]);
  }
}

template <class Scalar>
void kpm_blocked_step(const CrsMatrix<Scalar>& H, const KpmBlock<Scalar>& V, const KpmBlock<Scalar>& W,
                      double alpha, double beta, double gamma, bool team, double* sums) {
  const int R = static_cast<int>(V.extent(1));
  KELP_REQUIRE(static_cast<long long>(V.extent(0)) == H.num_rows() && W.extent(0) == V.extent(0) &&
                   static_cast<int>(W.extent(1)) == R,
               DimensionMismatch,
               "kelp::solvers::impl::kpm_blocked_step: H has " << H.num_rows() << " rows, V is " << V.extent(0)
                   << " x " << R << ", W is " << W.extent(0) << " x " << W.extent(1));
  if (!team) {
    blocked_step(H, V, W, alpha, beta, gamma, sums);
    return;
  }
  KpmTeamWorkspace<Scalar> ws(H, R, 1);
  blocked_step_team(H, V, W, alpha, beta, gamma, ws, 0);
  Kokkos::deep_copy(ws.sums_host, ws.sums);
  for (int c = 0; c < R; ++c) {
    sums[2 * c] = ws.sums_host(0, c);
    sums[2 * c + 1] = ws.sums_host(0, R + c);
  }
}

/// Column c of the row-major block `from` into the vector `to`.
template <class Scalar>
void copy_column(const ConstMultiVectorView<Scalar, Kokkos::LayoutRight>& from, long long c,
                 const VectorView<Scalar>& to) {
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  Kokkos::parallel_for("kelp::solvers::kpm(copy column)",
                       Kokkos::RangePolicy<Exec>(0, to.extent(0)),
                       KOKKOS_LAMBDA(const long long i) { to(i) = from(i, c); });
}

/// Columns [first, first + count) of `from` into the block `to` (count columns).
template <class Scalar>
void copy_columns(const ConstMultiVectorView<Scalar, Kokkos::LayoutRight>& from, long long first,
                  const KpmBlock<Scalar>& to) {
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  const long long count = static_cast<long long>(to.extent(1));
  if constexpr (kpm_is_warp_space<Exec>()) {
    // One element per index: consecutive GPU threads read and write consecutive addresses (a
    // thread per row strides by the row length). With V and W no longer zeroed, this saved
    // 3.0-3.5 ms per call on an H100 at R = 32 (docs/performance.md, issue 12).
    Kokkos::parallel_for("kelp::solvers::kpm(copy block)",
                         Kokkos::RangePolicy<Exec>(0, static_cast<long long>(to.extent(0)) * count),
                         KOKKOS_LAMBDA(const long long k) {
                           const long long i = k / count, c = k - i * count;
                           to(i, c) = from(i, first + c);
                         });
  } else {
    // A row per index: a CPU thread copies contiguous rows, without a division per element.
    Kokkos::parallel_for("kelp::solvers::kpm(copy block)", Kokkos::RangePolicy<Exec>(0, to.extent(0)),
                         KOKKOS_LAMBDA(const long long i) {
                           for (long long c = 0; c < count; ++c) to(i, c) = from(i, first + c);
                         });
  }
}

}  // namespace impl

template <class Scalar>
SpectralBounds gershgorin_bounds(const CrsMatrix<Scalar>& H) {
  KELP_REQUIRE(H.num_rows() == H.num_cols(), InvalidArgument,
               "kelp::solvers::gershgorin_bounds: H is " << H.num_rows() << " x " << H.num_cols()
                                                         << ", expected square");
  if (H.num_rows() == 0) return {};
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  const auto row_map = H.row_map();
  const auto entries = H.entries();
  const auto values = H.values();
  Kokkos::MinMaxScalar<double> range;
  Kokkos::parallel_reduce(
      "kelp::solvers::gershgorin_bounds", Kokkos::RangePolicy<Exec>(0, H.num_rows()),
      KOKKOS_LAMBDA(const int i, Kokkos::MinMaxScalar<double>& r) {
        double centre = 0, radius = 0;
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          if (entries(k) == i) {
            centre += ScalarTraits<Scalar>::real(values(k));
          } else {
            radius += ScalarTraits<Scalar>::abs(values(k));
          }
        }
        if (centre - radius < r.min_val) r.min_val = centre - radius;
        if (centre + radius > r.max_val) r.max_val = centre + radius;
      },
      Kokkos::MinMax<double>(range));
  return {range.min_val, range.max_val};
}

template <class Scalar>
SpectralBounds lanczos_bounds(const CrsMatrix<Scalar>& H, int steps, std::uint64_t seed) {
  KELP_REQUIRE(steps >= 1, InvalidArgument,
               "kelp::solvers::lanczos_bounds: steps = " << steps << ", expected >= 1");
  const SpectralBounds gershgorin = gershgorin_bounds(H);
  const MatrixOperator<CrsMatrix<Scalar>> op(H);
  return kpm_lanczos_bounds(op, gershgorin, H.num_rows(), steps, seed);
}

template <class Scalar>
void check_hermitian(const CrsMatrix<Scalar>& H, double relative_tolerance) {
  KELP_REQUIRE(H.num_rows() == H.num_cols(), InvalidArgument,
               "kelp::solvers::check_hermitian: H is " << H.num_rows() << " x " << H.num_cols()
                                                       << ", expected square");
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.entries());
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.values());
  using T = ScalarTraits<Scalar>;
  double largest = 0;
  for (std::size_t k = 0; k < values.extent(0); ++k) largest = std::max(largest, T::abs(values(k)));
  const double tolerance = relative_tolerance * largest;
  auto find = [&](Ordinal row, Ordinal col) {
    Scalar sum(0);
    for (auto k = row_map(row); k < row_map(row + 1); ++k) {
      if (entries(k) == col) sum += values(k);
    }
    return sum;
  };
  for (Ordinal i = 0; i < H.num_rows(); ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const Ordinal j = entries(k);
      impl::require_hermitian_entry("kelp::solvers::check_hermitian", i, j, find(i, j), T::conj(find(j, i)),
                                    largest, tolerance);
    }
  }
}

template <class Scalar>
void kpm_start_vectors(const MultiVectorView<Scalar, Kokkos::LayoutRight>& V, KpmTrace trace,
                       KpmRandomVector kind, std::uint64_t seed, long long first_vector,
                       const Kokkos::View<const long long*, typename CrsMatrix<Scalar>::memory_space>& row_of) {
  KELP_REQUIRE(row_of.extent(0) == 0 || row_of.extent(0) == V.extent(0), DimensionMismatch,
               "kelp::solvers::kpm_start_vectors: row_of has " << row_of.extent(0) << " entries, V has "
                                                               << V.extent(0) << " rows");
  KELP_REQUIRE(ScalarTraits<Scalar>::is_complex || trace == KpmTrace::exact ||
                   kind != KpmRandomVector::random_phase,
               InvalidArgument,
               "kelp::solvers::kpm_start_vectors: random_vector = random_phase needs a complex "
               "Hamiltonian; use rademacher for real ones");
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  const int mode = trace == KpmTrace::exact ? 0 : (kind == KpmRandomVector::rademacher ? 1 : 2);
  Kokkos::parallel_for("kelp::solvers::kpm_start_vectors",
                       Kokkos::RangePolicy<Exec>(0, static_cast<long long>(V.extent(0))),
                       impl::KpmStartVectors<Scalar, MultiVectorView<Scalar, Kokkos::LayoutRight>>{
                           V, seed, first_vector, mode, row_of});
}

template <class Scalar>
long long kpm_locality_part_rows(int block_width) {
  constexpr bool gpu = impl::kpm_is_warp_space<typename CrsMatrix<Scalar>::execution_space>();
  const double bytes = gpu ? 16.0 * (1 << 20) : 1.0 * (1 << 20);
  const double row_bytes = static_cast<double>(std::max(1, block_width)) * sizeof(Scalar);
  return std::max<long long>(64, static_cast<long long>(bytes / row_bytes));
}

template <class Scalar>
KpmOrderedHamiltonian<Scalar> kpm_locality_ordered(const CrsMatrix<Scalar>& H, int block_width,
                                                   long long part_rows) {
  KELP_REQUIRE(part_rows >= 0, InvalidArgument,
               "kelp::solvers::kpm_locality_ordered: part_rows = " << part_rows << ", expected >= 0 (0: automatic)");
  KELP_REQUIRE(H.num_rows() == H.num_cols(), DimensionMismatch,
               "kelp::solvers::kpm_locality_ordered: H is " << H.num_rows() << " x " << H.num_cols()
                                                            << ", expected square");
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.entries());
  const std::vector<std::int64_t> order = kernels::locality_order(
      H.num_rows(), row_map, entries, part_rows > 0 ? part_rows : kpm_locality_part_rows<Scalar>(block_width));
  KpmOrderedHamiltonian<Scalar> result;
  result.H = kernels::symmetric_permute(H, order);
  result.old_of_new = decltype(result.old_of_new)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::solvers::kpm::old_of_new"), order.size());
  auto host = Kokkos::create_mirror_view(result.old_of_new);
  for (std::size_t i = 0; i < order.size(); ++i) host(i) = static_cast<long long>(order[i]);
  Kokkos::deep_copy(result.old_of_new, host);
  return result;
}

template <class Scalar>
KpmMoments kpm_moments(const CrsMatrix<Scalar>& H, const KpmScaling& scaling,
                       const ConstMultiVectorView<typename CrsMatrix<Scalar>::scalar_type,
                                                  Kokkos::LayoutRight>& start,
                       int num_moments, KpmImplementation implementation, int block_size,
                       double growth_tolerance, KpmBlockedKernel blocked_kernel) {
  KELP_REQUIRE(H.num_rows() == H.num_cols(), InvalidArgument,
               "kelp::solvers::kpm_moments: H is " << H.num_rows() << " x " << H.num_cols()
                                                   << ", expected square");
  KELP_REQUIRE(static_cast<long long>(start.extent(0)) == H.num_rows(), DimensionMismatch,
               "kelp::solvers::kpm_moments: start vectors have " << start.extent(0)
                   << " rows, H has " << H.num_rows());
  KELP_REQUIRE(num_moments >= 2, InvalidArgument,
               "kelp::solvers::kpm_moments: num_moments = " << num_moments << ", expected >= 2");
  KELP_REQUIRE(block_size >= 1, InvalidArgument,
               "kelp::solvers::kpm_moments: block_size = " << block_size << ", expected >= 1");
  KELP_REQUIRE(scaling.half_width > 0 && std::isfinite(scaling.half_width) &&
                   std::isfinite(scaling.center),
               InvalidArgument,
               "kelp::solvers::kpm_moments: scaling center " << scaling.center << ", half_width "
                   << scaling.half_width << "; expected finite with half_width > 0");
  const long long n = H.num_rows();
  const int R = static_cast<int>(start.extent(1));
  KpmMoments moments;
  moments.num_moments = num_moments;
  moments.num_vectors = R;
  moments.values.assign(static_cast<std::size_t>(R) * num_moments, 0.0);
  if (R == 0) return moments;
  if (implementation == KpmImplementation::blocked) {
    const bool team = impl::kpm_blocked_uses_team<typename CrsMatrix<Scalar>::execution_space>(blocked_kernel);
    const int width = std::min(block_size, R);
    // Not zeroed: copy_columns fills V, and the first step writes W without reading it.
    const auto block = [n](const std::string& label, int columns) {
      impl::KpmBlock<Scalar> b(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n, columns);
      kelp::impl::advise_huge_pages(b);  // before the first write: the far gathers' page walks
      return b;
    };
    impl::KpmBlock<Scalar> V = block("kelp::solvers::kpm::V", width);
    impl::KpmBlock<Scalar> W = block("kelp::solvers::kpm::W", width);
    for (int first = 0; first < R; first += width) {
      const int count = std::min(width, R - first);
      // The last block may be narrower: fresh views of its width keep rows contiguous.
      impl::KpmBlock<Scalar> Vb = count == width ? V : block("kelp::solvers::kpm::V", count);
      impl::KpmBlock<Scalar> Wb = count == width ? W : block("kelp::solvers::kpm::W", count);
      impl::copy_columns(start, first, Vb);
      impl::moments_blocked(H, scaling, Vb, Wb, num_moments,
                            moments.values.data() + static_cast<std::size_t>(first) * num_moments, team);
    }
  } else {
    const auto vector = [n](const std::string& label) {
      VectorView<Scalar> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
      kelp::impl::advise_huge_pages(x);  // as the blocks, so that naive is compared like for like
      Kokkos::deep_copy(x, Scalar(0));
      return x;
    };
    VectorView<Scalar> v = vector("kelp::solvers::kpm::v");
    VectorView<Scalar> w = vector("kelp::solvers::kpm::w");
    VectorView<Scalar> u;
    kernels::SpmvHandle<CrsMatrix<Scalar>> handle;
    if (implementation == KpmImplementation::naive) u = vector("kelp::solvers::kpm::u");
    for (int r = 0; r < R; ++r) {
      impl::copy_column(start, r, v);
      double* mu = moments.values.data() + static_cast<std::size_t>(r) * num_moments;
      if (implementation == KpmImplementation::naive) {
        impl::moments_naive(H, handle, scaling, v, w, u, num_moments, mu);
      } else {
        impl::moments_augmented(H, scaling, v, w, num_moments, mu);
      }
    }
  }
  impl::check_growth(moments, scaling, growth_tolerance);
  return moments;
}

template <class Scalar>
KpmDosResult kpm_dos(const CrsMatrix<Scalar>& H, const KpmParams& params,
                     const std::vector<double>& energies, const std::optional<SpectralBounds>& bounds) {
  validate(params);
  KELP_REQUIRE(H.num_rows() == H.num_cols() && H.num_rows() > 0, InvalidArgument,
               "kelp::solvers::kpm_dos: H is " << H.num_rows() << " x " << H.num_cols()
                                               << ", expected square and not empty");
  KELP_REQUIRE(!energies.empty(), InvalidArgument,
               "kelp::solvers::kpm_dos: the energy grid is empty; expected at least one energy");
  check_hermitian(H, params.hermitian_tolerance);
  KpmDosResult result;
  result.energies = energies;
  if (bounds) {
    result.bounds = *bounds;
  } else if (params.bounds == KpmBoundsMethod::gershgorin) {
    result.bounds = gershgorin_bounds(H);
  } else {
    result.bounds = lanczos_bounds(H, params.lanczos_steps, params.seed ^ 0x5A5A5A5AULL);
  }
  result.scaling = KpmScaling::from_bounds(result.bounds, params.safety_margin);

  const long long n = H.num_rows();
  const long long num_vectors = kpm_trace_vectors(params, n);
  // Start vectors are made block by block, so the exact trace never holds an n x n block.
  const long long chunk = kpm_block_width(params, n);
  // The locality order permutes H and the start vectors alike: the moments do not change.
  CrsMatrix<Scalar> ordered = H;
  Kokkos::View<const long long*, typename CrsMatrix<Scalar>::memory_space> row_of;
  if (params.row_order == KpmRowOrder::locality) {
    const auto o = kpm_locality_ordered(H, static_cast<int>(chunk), params.locality_part_rows);
    ordered = o.H;
    row_of = o.old_of_new;
  }
  impl::KpmBlock<Scalar> start("kelp::solvers::kpm_dos::start", n, chunk);
  KpmMoments all;
  all.num_moments = params.num_moments;
  all.num_vectors = static_cast<int>(num_vectors);
  all.values.reserve(static_cast<std::size_t>(num_vectors) * params.num_moments);
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  for (long long first = 0; first < num_vectors; first += chunk) {
    const long long count = std::min(chunk, num_vectors - first);
    impl::KpmBlock<Scalar> block = count == chunk ? start : impl::KpmBlock<Scalar>("kelp::solvers::kpm_dos::start", n, count);
    kpm_start_vectors(block, params.trace, params.random_vector, params.seed, first, row_of);
    const KpmMoments part = kpm_moments(ordered, result.scaling, block, params.num_moments,
                                        params.implementation, params.block_size,
                                        params.growth_tolerance, params.blocked_kernel);
    all.values.insert(all.values.end(), part.values.begin(), part.values.end());
  }
  Kokkos::fence();
  result.moments_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.num_vectors = static_cast<int>(num_vectors);
  result.num_products = num_vectors * ((params.num_moments + 1) / 2);
  kpm_density_of_moments(all, params, result);
  return result;
}

}  // namespace kelp::solvers

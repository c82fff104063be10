// Block reductions of dist::MpiReduction on 1-4 ranks (odd counts give uneven row blocks): the
// Gram block, column dots (single and fused) and column norms equal a sequential reference on the
// gathered rows, and each call costs exactly one MPI_Allreduce (counted through PMPI).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/solvers/reduction.hpp"
#include "test/distributed/allreduce_counter.hpp"
#include "test/distributed/mpi_world.hpp"

namespace kelp::block_reduction_test {
namespace {

using C = Kokkos::complex<double>;

/// Entry (r, j) of a global n x k test block, the same on every rank (seed picks the block).
template <class S>
S entry(std::size_t r, std::size_t j, int seed) {
  const double re = std::sin(0.37 * r + 1.3 * j + seed), im = std::cos(0.11 * r - 0.7 * j + 2 * seed);
  if constexpr (ScalarTraits<S>::is_complex) {
    return S(re, im);
  } else {
    return S(re);
  }
}

/// This rank's rows of the global block, as a LayoutLeft device multi-vector.
template <class S>
MultiVectorView<S> local_block(std::size_t n, std::size_t k, int seed) {
  const auto share = test::even_share(static_cast<long long>(n));
  const auto begin = static_cast<std::size_t>(share.first), end = static_cast<std::size_t>(share.second);
  MultiVectorView<S> v("v", end - begin, k);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t r = begin; r < end; ++r) h(r - begin, j) = entry<S>(r, j, seed);
  Kokkos::deep_copy(v, h);
  return v;
}

/// Sequential conj(X(:, i))^T Y(:, j) over all n rows, in double precision.
template <class S>
C reference_dot(std::size_t n, int x_seed, std::size_t i, int y_seed, std::size_t j) {
  C sum(0, 0);
  for (std::size_t r = 0; r < n; ++r) {
    const S x = entry<S>(r, i, x_seed), y = entry<S>(r, j, y_seed);
    sum += Kokkos::conj(C(ScalarTraits<S>::real(x), ScalarTraits<S>::imag(x))) *
           C(ScalarTraits<S>::real(y), ScalarTraits<S>::imag(y));
  }
  return sum;
}

template <class S>
C widen(S v) {
  return C(ScalarTraits<S>::real(v), ScalarTraits<S>::imag(v));
}

template <class S>
double tolerance(std::size_t n) {
  return std::is_same<typename ScalarTraits<S>::magnitude_type, float>::value ? 1e-5 * n : 1e-13 * n;
}

template <class S>
class MpiBlockReduction : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(MpiBlockReduction, ScalarTypes);

TYPED_TEST(MpiBlockReduction, BlockResultsEqualTheSequentialReferenceInOneAllreduceEach) {
  using S = TypeParam;
  using Mag = typename ScalarTraits<S>::magnitude_type;
  dist::MpiReduction reduce;
  // k = 0, k = 1, k > 1, beyond one Gram tile (40 > 32), and n smaller than the rank count
  // (some ranks then hold no rows).
  for (auto [n, k, m] : std::vector<std::array<std::size_t, 3>>{
           {1001, 4, 3}, {37, 1, 1}, {2, 3, 2}, {500, 0, 2}, {203, 40, 2}}) {
    const auto X = local_block<S>(n, k, 1), Y = local_block<S>(n, m, 2), Z = local_block<S>(n, k, 3);
    const std::size_t kk = std::min(k, m);
    const auto Yk = Kokkos::subview(Y, Kokkos::ALL, std::make_pair(std::size_t(0), kk));
    const auto Xk = Kokkos::subview(X, Kokkos::ALL, std::make_pair(std::size_t(0), kk));
    Kokkos::View<S**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", k, m);
    Kokkos::View<S*, Kokkos::HostSpace> dots("dots", kk), r1("r1", k), r2("r2", kk);
    Kokkos::View<Mag*, Kokkos::HostSpace> norms("norms", k);
    std::vector<long> calls;

    long before = test::allreduce_calls();
    reduce.gram(X, Y, G);
    calls.push_back(test::allreduce_calls() - before);
    before = test::allreduce_calls();
    reduce.column_dots(Xk, Yk, dots);
    calls.push_back(test::allreduce_calls() - before);
    before = test::allreduce_calls();
    reduce.column_dots(X, Z, Xk, Yk, r1, r2);
    calls.push_back(test::allreduce_calls() - before);
    before = test::allreduce_calls();
    reduce.column_norms(X, norms);
    calls.push_back(test::allreduce_calls() - before);

    EXPECT_EQ(calls, (std::vector<long>{1, 1, 1, 1})) << "gram, column_dots, fused, norms; n = " << n;
    const double tol = tolerance<S>(n);
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t j = 0; j < m; ++j) {
        EXPECT_LE(Kokkos::abs(widen(G(i, j)) - reference_dot<S>(n, 1, i, 2, j)), tol) << i << ", " << j;
      }
      EXPECT_LE(Kokkos::abs(widen(r1(i)) - reference_dot<S>(n, 1, i, 3, i)), tol) << i;
      EXPECT_NEAR(norms(i), std::sqrt(reference_dot<S>(n, 1, i, 1, i).real()), tol) << i;
    }
    for (std::size_t j = 0; j < kk; ++j) {
      EXPECT_LE(Kokkos::abs(widen(dots(j)) - reference_dot<S>(n, 1, j, 2, j)), tol) << j;
      EXPECT_LE(Kokkos::abs(widen(r2(j)) - reference_dot<S>(n, 1, j, 2, j)), tol) << j;
    }
  }
}

TEST(MpiBlockReduction, AgreesWithLocalReductionOnOneRanksRows) {
  // The policies share the kernels: on the rows of one rank, LocalReduction's answer is the
  // MPI answer with a single rank; across ranks the local parts must add up to the global one.
  const std::size_t n = 301, k = 3;
  const auto X = local_block<double>(n, k, 5);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> local("local", k, k), global("global", k, k);

  solvers::LocalReduction().gram(X, X, local);
  dist::MpiReduction().gram(X, X, global);

  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> summed("summed", k, k);
  MPI_Allreduce(local.data(), summed.data(), static_cast<int>(k * k), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) EXPECT_NEAR(global(i, j), summed(i, j), 1e-12 * n);
}

}  // namespace
}  // namespace kelp::block_reduction_test

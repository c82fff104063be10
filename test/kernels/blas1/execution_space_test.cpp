// Every BLAS-1 and block kernel called with an explicit execution-space instance gives the
// default path's result. On OpenMP the default-constructed instance is the only one (Kokkos 3.4.1
// has no partition_space); a Kokkos::Serial instance on the same host data takes the other
// compiled path (not the ETI body) and runs everything on another space.
#include <gtest/gtest.h>

#include "kelp/kernels/blas1.hpp"
#include "test/support/dense.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::execution_space_test {
namespace {

using S = Kokkos::complex<double>;
using Mag = double;
using HostMatrix = Kokkos::View<S**, Kokkos::LayoutLeft, Kokkos::HostSpace>;

template <class V>
auto host_copy(const V& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

/// Results of every kernel on one instance (exec) or, with no instance, on the default path.
struct Results {
  std::vector<S> vectors;  // y after fill/scal/axpby/update, Y after axpby_columns
  std::vector<S> sums;     // dot, dots, column dots, fused column dots, gram
  std::vector<Mag> norms;  // nrm2, nrminf, column norms
};

template <class... Exec>
Results run_all(const Exec&... exec) {
  const std::size_t n = 1001, k = 3;
  const auto xv = test::random_vector<S>(n, 1), yv = test::random_vector<S>(n, 2);
  const auto xm = test::random_vector<S>(n * k, 3), ym = test::random_vector<S>(n * k, 4);
  auto x = test::vector_from(xv), y = test::vector_from(yv), z = test::vector_from(yv);
  auto X = test::multivector_from<S>(xm, n, k), Y = test::multivector_from<S>(ym, n, k);
  Kokkos::View<S*, Kokkos::HostSpace> a("a", k), b("b", k), r1("r1", k), r2("r2", k);
  Kokkos::View<Mag*, Kokkos::HostSpace> n2("n2", k), ninf("ninf", k);
  HostMatrix G("G", k, k);
  for (std::size_t j = 0; j < k; ++j) {
    a(j) = S(1.0 + j, 0.5);
    b(j) = S(j == 0 ? 0.0 : -0.5, 0.0);
  }
  test::poison(r1);
  test::poison(G);
  Results out;

  kernels::fill(exec..., z, S(2, -1));
  kernels::scal(exec..., S(0.5, 0.25), z);
  kernels::axpby(exec..., S(1.5), x, S(-0.5, 1), y);
  kernels::update(exec..., S(2), x, S(0.25), y, S(-1), z);
  kernels::axpby_columns(exec..., a, X, b, Y);
  out.sums.push_back(kernels::dot(exec..., x, y));
  const auto [d1, d2] = kernels::dots(exec..., x, y, z, z);
  out.sums.insert(out.sums.end(), {d1, d2});
  kernels::dot(exec..., X, Y, r1);
  out.sums.insert(out.sums.end(), r1.data(), r1.data() + k);
  kernels::column_dots(exec..., X, X, Y, X, r1, r2);
  out.sums.insert(out.sums.end(), r1.data(), r1.data() + k);
  out.sums.insert(out.sums.end(), r2.data(), r2.data() + k);
  kernels::gram(exec..., X, Y, G);
  out.sums.insert(out.sums.end(), G.data(), G.data() + k * k);
  out.norms.push_back(kernels::nrm2(exec..., x));
  out.norms.push_back(kernels::nrminf(exec..., y));
  kernels::nrm2(exec..., X, n2);
  kernels::nrminf(exec..., Y, ninf);
  out.norms.insert(out.norms.end(), n2.data(), n2.data() + k);
  out.norms.insert(out.norms.end(), ninf.data(), ninf.data() + k);

  for (const auto& v : {y, z}) {
    const auto h = host_copy(v);
    out.vectors.insert(out.vectors.end(), h.data(), h.data() + n);
  }
  const auto hY = host_copy(Y);
  out.vectors.insert(out.vectors.end(), hY.data(), hY.data() + n * k);
  return out;
}

TEST(ExecutionSpaceInstances, DefaultInstanceGivesTheDefaultPathsResultsExactly) {
  const Results reference = run_all();

  const Results with_instance = run_all(Kokkos::DefaultExecutionSpace());

  ASSERT_EQ(with_instance.vectors.size(), reference.vectors.size());
  for (std::size_t i = 0; i < reference.vectors.size(); ++i) {
    ASSERT_EQ(with_instance.vectors[i], reference.vectors[i]) << i;
  }
  // Same instance, same compiled body, same static schedule: the same rounding.
  for (std::size_t i = 0; i < reference.sums.size(); ++i) EXPECT_EQ(with_instance.sums[i], reference.sums[i]) << i;
  for (std::size_t i = 0; i < reference.norms.size(); ++i) EXPECT_EQ(with_instance.norms[i], reference.norms[i]) << i;
}

#if defined(KOKKOS_ENABLE_SERIAL) && !defined(KOKKOS_ENABLE_CUDA)  // Serial must reach the data
TEST(ExecutionSpaceInstances, SerialInstanceOnHostDataMatchesTheDefaultPath) {
  const Results reference = run_all();

  const Results serial = run_all(Kokkos::Serial());

  for (std::size_t i = 0; i < reference.vectors.size(); ++i) {
    ASSERT_EQ(serial.vectors[i], reference.vectors[i]) << i;  // element-wise: no reordering
  }
  // Sums in another order: equal to rounding.
  for (std::size_t i = 0; i < reference.sums.size(); ++i) {
    EXPECT_LE(Kokkos::abs(serial.sums[i] - reference.sums[i]), 1e-11 * (1 + Kokkos::abs(reference.sums[i]))) << i;
  }
  for (std::size_t i = 0; i < reference.norms.size(); ++i) {
    EXPECT_NEAR(serial.norms[i], reference.norms[i], 1e-12 * (1 + reference.norms[i])) << i;
  }
}
#endif

}  // namespace
}  // namespace kelp::execution_space_test

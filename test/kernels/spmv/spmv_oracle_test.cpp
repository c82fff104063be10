// SpMV on every matrix in test/data/matrices against the scipy oracles beside them:
// A*ones, A*cos, A^T*ones, A^H*cos, for every algorithm, as vectors and as a two-column
// multi-vector in both layouts.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <dirent.h>

#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"

namespace kelp {
namespace {

using kernels::SpmvAlgorithm;
using kernels::SpmvMode;

std::vector<std::string> shared_matrix_names() {
  std::vector<std::string> names;
  if (DIR* dir = opendir((test::matrices_dir() + "/oracles").c_str())) {
    while (dirent* entry = readdir(dir)) {
      const std::string file = entry->d_name;
      if (file.size() > 5 && file.substr(file.size() - 5) == ".json") names.push_back(file.substr(0, file.size() - 5));
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// Compares a product with the oracle summary (norm2, norminf, sum, first4) at 1e-10 relative.
template <class Scalar>
void expect_matches_summary(const std::vector<Scalar>& y, const YAML::Node& oracle, const std::string& what) {
  using T = ScalarTraits<Scalar>;
  double norm2 = 0, norminf = 0;
  Scalar sum = Scalar(0);
  for (const auto& v : y) {
    norm2 += T::abs2(v);
    norminf = std::max<double>(norminf, T::abs(v));
    sum += v;
  }
  norm2 = std::sqrt(norm2);
  const double ref_norm2 = oracle["norm2"].as<double>();
  const double scale = std::max(ref_norm2, 1e-300);
  EXPECT_NEAR(norm2, ref_norm2, 1e-10 * scale) << what;
  EXPECT_NEAR(norminf, oracle["norminf"].as<double>(), 1e-10 * scale) << what;
  const double sum_tol = 1e-10 * scale * std::sqrt(static_cast<double>(y.size()));
  if constexpr (T::is_complex) {
    EXPECT_NEAR(T::real(sum), oracle["sum_real"].as<double>(), sum_tol) << what;
    EXPECT_NEAR(T::imag(sum), oracle["sum_imag"].as<double>(), sum_tol) << what;
    for (std::size_t i = 0; i < 4 && i < y.size(); ++i) {
      EXPECT_NEAR(T::real(y[i]), oracle["first4_real"][i].as<double>(), 1e-10 * scale) << what << " entry " << i;
      EXPECT_NEAR(T::imag(y[i]), oracle["first4_imag"][i].as<double>(), 1e-10 * scale) << what << " entry " << i;
    }
  } else {
    EXPECT_NEAR(sum, oracle["sum"].as<double>(), sum_tol) << what;
    for (std::size_t i = 0; i < 4 && i < y.size(); ++i) {
      EXPECT_NEAR(y[i], oracle["first4"][i].as<double>(), 1e-10 * scale) << what << " entry " << i;
    }
  }
}

/// Computes op(A) [ones, cos] for one algorithm and layout (k = 0: two rank-1 calls).
template <class Scalar, class Layout>
std::pair<std::vector<Scalar>, std::vector<Scalar>> products(const CrsMatrix<Scalar>& A, SpmvMode mode,
                                                             SpmvAlgorithm algorithm, bool multivector) {
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const int n_in = transposed ? A.num_rows() : A.num_cols();
  const int n_out = transposed ? A.num_cols() : A.num_rows();
  Kokkos::View<Scalar**, Layout> x("x", n_in, 2), y("y", n_out, 2);
  auto xh = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n_in; ++i) {
    xh(i, 0) = Scalar(1);
    xh(i, 1) = Scalar(std::cos(static_cast<double>(i)));
  }
  Kokkos::deep_copy(x, xh);
  test::poison(y);
  kernels::SpmvHandle<CrsMatrix<Scalar>> handle(algorithm, algorithm == SpmvAlgorithm::merge_path ? 37 : 0);
  if (multivector) {
    kernels::spmv(handle, mode, Scalar(1), A, x, Scalar(0), y);
  } else {
    for (int j = 0; j < 2; ++j) {
      kernels::spmv(handle, mode, Scalar(1), A, Kokkos::subview(x, Kokkos::ALL, j), Scalar(0),
                    Kokkos::subview(y, Kokkos::ALL, j));
    }
  }
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  std::vector<Scalar> first(n_out), second(n_out);
  for (int i = 0; i < n_out; ++i) {
    first[i] = yh(i, 0);
    second[i] = yh(i, 1);
  }
  return {first, second};
}

template <class Scalar>
void check_matrix_against_oracle(const std::string& name, const YAML::Node& oracle) {
  const auto A = io::read_matrix_market<Scalar>(test::matrix_path(name));
  ASSERT_EQ(A.num_rows(), oracle["rows"].as<int>()) << name;
  ASSERT_EQ(A.nnz(), oracle["nnz"].as<long long>()) << name;
  const auto spmv = oracle["spmv"];
  for (auto algorithm : {SpmvAlgorithm::row_parallel, SpmvAlgorithm::merge_path, SpmvAlgorithm::automatic}) {
    for (int variant = 0; variant < 3; ++variant) {
      const bool multivector = variant > 0;
      auto run = [&](SpmvMode mode) {
        return variant == 2 ? products<Scalar, Kokkos::LayoutRight>(A, mode, algorithm, multivector)
                            : products<Scalar, Kokkos::LayoutLeft>(A, mode, algorithm, multivector);
      };
      const std::string what = name + " (" + kernels::to_string(algorithm) + ", variant " +
                               std::to_string(variant) + ")";
      const auto [a_ones, a_cos] = run(SpmvMode::no_transpose);
      expect_matches_summary(a_ones, spmv["A_ones"], what + " A*ones");
      expect_matches_summary(a_cos, spmv["A_cos"], what + " A*cos");
      const auto [at_ones, at_cos] = run(SpmvMode::transpose);
      expect_matches_summary(at_ones, spmv["AT_ones"], what + " A^T*ones");
      const auto [ah_ones, ah_cos] = run(SpmvMode::conjugate_transpose);
      expect_matches_summary(ah_cos, spmv["AH_cos"], what + " A^H*cos");
    }
  }
}

TEST(SpmvOracle, MatchesScipyOnEverySharedMatrix) {
  const auto names = shared_matrix_names();
  ASSERT_GE(names.size(), 20u) << "shared matrices not found in " << test::matrices_dir();
  for (const auto& name : names) {
    const YAML::Node oracle = YAML::LoadFile(test::oracle_path(name));
    if (!oracle["spmv"]) continue;
    if (oracle["field"].as<std::string>() == "complex") {
      check_matrix_against_oracle<Kokkos::complex<double>>(name, oracle);
    } else {
      check_matrix_against_oracle<double>(name, oracle);
    }
  }
}

}  // namespace
}  // namespace kelp

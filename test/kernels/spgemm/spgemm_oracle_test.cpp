// SpGEMM and SpAdd on every matrix in test/data/matrices against the scipy oracles stored beside
// them (oracles/README.md): C = A·A (square) or A·Aᵀ (rectangular) has the oracle's structural
// nnz, multiply-add count and Frobenius norm, with both accumulators; S = A + Aᵀ (square) has
// the oracle's structural nnz and Frobenius norm. Complex matrices run in complex arithmetic.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spadd/spadd.hpp"
#include "kelp/kernels/sparse/transpose.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "test/support/paths.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::spgemm_oracle_test {
namespace {

template <class Matrix>
double frobenius(const Matrix& A) {
  const auto h = test::to_host_crs(A);
  double sum = 0;
  for (const auto& v : h.values) sum += ScalarTraits<typename Matrix::scalar_type>::abs2(v);
  return std::sqrt(sum);
}

template <class Matrix>
long long nonzeros(const Matrix& A) {
  const auto h = test::to_host_crs(A);
  long long count = 0;
  for (const auto& v : h.values) count += v != typename Matrix::scalar_type(0) ? 1 : 0;
  return count;
}

template <class Scalar>
void check_matrix(const std::string& name, const YAML::Node& oracle) {
  using Matrix = CrsMatrix<Scalar>;
  const auto A = io::read_matrix_market<Scalar>(test::matrix_path(name));
  const auto spgemm = oracle["spgemm"];
  const bool square = spgemm["product"].as<std::string>() == "A*A";
  const Matrix B = square ? A : kernels::transpose(A, false);
  for (auto algorithm : {kernels::SpgemmAlgorithm::dense, kernels::SpgemmAlgorithm::hash}) {
    kernels::SpgemmHandle<Matrix> handle(algorithm);
    Matrix C;
    const std::string what = name + " " + spgemm["product"].as<std::string>() + " " + kernels::to_string(algorithm);

    try {
      kernels::spgemm_symbolic(handle, A, B, C);
    } catch (const InvalidArgument& e) {
      // Only a GPU's ~10^5 concurrent threads make an explicit dense accumulator too large for a
      // wide C; the error must say so (host spaces always fit here).
      EXPECT_EQ(algorithm, kernels::SpgemmAlgorithm::dense) << what << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("dense accumulator would take"), std::string::npos) << what;
      EXPECT_FALSE((Kokkos::SpaceAccessibility<typename Matrix::execution_space, Kokkos::HostSpace>::accessible))
          << what << ": " << e.what();
      continue;
    }
    kernels::spgemm_numeric(handle, A, B, C);

    // scipy's product drops entries that come out exactly zero, so for matrices with explicit
    // zero values (zenios) its "structural" count is the count of nonzero values of C.
    const bool explicit_zeros = oracle["nnz_nonzero_values"].as<long long>() < oracle["nnz"].as<long long>();
    EXPECT_EQ(explicit_zeros ? nonzeros(C) : static_cast<long long>(C.nnz()),
              spgemm[explicit_zeros ? "nnz_numeric" : "nnz_structural"].as<long long>()) << what;
    EXPECT_EQ(handle.products(), spgemm["multiply_adds"].as<long long>()) << what;
    const double fro = spgemm["fro"].as<double>();
    EXPECT_NEAR(frobenius(C), fro, 1e-10 * fro) << what;
    EXPECT_TRUE(kernels::rows_sorted_unique(C)) << what;
  }
  if (oracle["spadd"] && oracle["spadd"]["op"].as<std::string>() == "A+A^T") {
    const auto S = kernels::spadd(Scalar(1), A, Scalar(1), kernels::transpose(A, false));
    const double fro = oracle["spadd"]["fro"].as<double>();
    const bool explicit_zeros = oracle["nnz_nonzero_values"].as<long long>() < oracle["nnz"].as<long long>();
    EXPECT_EQ(explicit_zeros ? nonzeros(S) : static_cast<long long>(S.nnz()),
              oracle["spadd"][explicit_zeros ? "nnz_numeric" : "nnz_structural"].as<long long>())
        << name << " A+A^T";
    EXPECT_NEAR(frobenius(S), fro, 1e-10 * fro) << name << " A+A^T";
  }
}

TEST(SpgemmOracle, ProductsAndSumsOfTheRepositoryMatricesMatchScipy) {
  const auto names = test::shared_matrix_names();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    const YAML::Node oracle = YAML::LoadFile(test::oracle_path(name));
    // The few products of millions of multiply-adds (astro-ph, bcsstk13/14, wiki-Vote) take
    // seconds each with one thread: kelp-bench-spgemm --matrices covers them.
    if (!oracle["spgemm"] || oracle["spgemm"]["multiply_adds"].as<long long>() > 1000000) continue;
    if (oracle["field"].as<std::string>() == "complex") {
      check_matrix<Kokkos::complex<double>>(name, oracle);
    } else {
      check_matrix<double>(name, oracle);
    }
  }
}

}  // namespace
}  // namespace kelp::spgemm_oracle_test

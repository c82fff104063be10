// SpMV on every matrix in test/data/matrices (real, integer, pattern, complex, rectangular),
// compared entry by entry with an independent reference: Eigen's SpMV on a sparse matrix built
// from the file's triplets (not from Kelp's CRS), under the rigorous bound of spmv_bound.hpp.
// op(A) x for all four modes and x = ones, x = cos(i), for every algorithm, as vectors and as a
// two-column multi-vector in both layouts. The scipy oracles beside the matrices (norms, sums,
// first entries) check the reader and the reference in turn.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <Eigen/SparseCore>
#include <cmath>
#include <complex>

#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"
#include "test/support/reference.hpp"
#include "test/support/spmv_bound.hpp"

namespace kelp::spmv_oracle_test {
namespace {

using kernels::SpmvAlgorithm;
using kernels::SpmvMode;
using Complex = Kokkos::complex<double>;
using EigenMatrix = Eigen::SparseMatrix<std::complex<double>, Eigen::RowMajor, long long>;
using EigenVector = Eigen::VectorXcd;

const SpmvMode all_modes[] = {SpmvMode::no_transpose, SpmvMode::transpose, SpmvMode::conjugate,
                              SpmvMode::conjugate_transpose};

/// The file's triplets as parsed (symmetric storage expanded, duplicates kept, pattern = 1).
test::HostCoo triplets_of(const io::MatrixMarketCoo& coo) {
  test::HostCoo out;
  out.num_rows = coo.info.num_rows;
  out.num_cols = coo.info.num_cols;
  out.rows.assign(coo.rows.begin(), coo.rows.end());
  out.cols.assign(coo.cols.begin(), coo.cols.end());
  out.values.resize(coo.real_values.size());
  for (std::size_t t = 0; t < out.values.size(); ++t) {
    out.values[t] = Complex(coo.real_values[t], coo.imag_values.empty() ? 0.0 : coo.imag_values[t]);
  }
  return out;
}

EigenMatrix eigen_matrix(const test::HostCoo& coo) {
  std::vector<Eigen::Triplet<std::complex<double>, long long>> triplets;
  triplets.reserve(coo.values.size());
  for (std::size_t t = 0; t < coo.values.size(); ++t) {
    triplets.emplace_back(coo.rows[t], coo.cols[t],
                          std::complex<double>(coo.values[t].real(), coo.values[t].imag()));
  }
  EigenMatrix A(coo.num_rows, coo.num_cols);
  A.setFromTriplets(triplets.begin(), triplets.end());  // sums duplicates, as the reader must
  return A;
}

/// The two input vectors of the oracles: ones and cos(i).
std::vector<Complex> input_vector(int which, long long n) {
  std::vector<Complex> x(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) x[i] = which == 0 ? Complex(1, 0) : Complex(std::cos(double(i)), 0);
  return x;
}

/// op(A) x by Eigen, with the magnitudes and term counts of the bound from a plain loop over the
/// same triplets.
test::ReferenceProduct eigen_reference(const EigenMatrix& E, const test::HostCoo& coo,
                                       SpmvMode mode, const std::vector<Complex>& x) {
  EigenVector ex(static_cast<Eigen::Index>(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) ex[i] = std::complex<double>(x[i].real(), x[i].imag());
  EigenVector ey;
  switch (mode) {
    case SpmvMode::no_transpose: ey = E * ex; break;
    case SpmvMode::transpose: ey = E.transpose() * ex; break;
    case SpmvMode::conjugate: ey = E.conjugate() * ex; break;
    case SpmvMode::conjugate_transpose: ey = E.adjoint() * ex; break;
  }
  auto ref = test::reference_product(mode, Complex(1, 0), coo, x, Complex(0, 0), {});
  for (Eigen::Index i = 0; i < ey.size(); ++i) ref.value[i] = Complex(ey[i].real(), ey[i].imag());
  return ref;
}

/// Compares a product with the oracle summary (norm2, norminf, sum, first4) at 1e-10 relative.
template <class Value>
void expect_matches_summary(const std::vector<Value>& y, const YAML::Node& oracle, const std::string& what) {
  double norm2 = 0, norminf = 0;
  Complex sum(0, 0);
  for (const auto& value : y) {
    const Complex v = test::to_complex_double(value);
    norm2 += v.real() * v.real() + v.imag() * v.imag();
    norminf = std::max(norminf, Kokkos::abs(v));
    sum += v;
  }
  norm2 = std::sqrt(norm2);
  const double ref_norm2 = oracle["norm2"].as<double>();
  const double scale = std::max(ref_norm2, 1e-300);
  EXPECT_NEAR(norm2, ref_norm2, 1e-10 * scale) << what;
  EXPECT_NEAR(norminf, oracle["norminf"].as<double>(), 1e-10 * scale) << what;
  const double sum_tol = 1e-10 * scale * std::sqrt(static_cast<double>(y.size()));
  const bool complex = static_cast<bool>(oracle["sum_real"]);
  EXPECT_NEAR(sum.real(), oracle[complex ? "sum_real" : "sum"].as<double>(), sum_tol) << what;
  if (complex) {
    EXPECT_NEAR(sum.imag(), oracle["sum_imag"].as<double>(), sum_tol) << what;
  }
  for (std::size_t i = 0; i < 4 && i < y.size(); ++i) {
    const Complex v = test::to_complex_double(y[i]);
    EXPECT_NEAR(v.real(), oracle[complex ? "first4_real" : "first4"][i].as<double>(), 1e-10 * scale)
        << what << " entry " << i;
    if (complex) {
      EXPECT_NEAR(v.imag(), oracle["first4_imag"][i].as<double>(), 1e-10 * scale) << what << " entry " << i;
    }
  }
}

/// Computes op(A) [ones, cos] for one algorithm and layout (multivector = false: two rank-1 calls).
template <class Scalar, class Layout>
std::vector<std::vector<Scalar>> products(const CrsMatrix<Scalar>& A, SpmvMode mode,
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
  std::vector<std::vector<Scalar>> out(2, std::vector<Scalar>(n_out));
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < n_out; ++i) out[j][i] = yh(i, j);
  return out;
}

template <class Scalar>
void check_matrix(const std::string& name, const YAML::Node& oracle) {
  const auto coo = triplets_of(io::read_matrix_market_coo(test::matrix_path(name)));
  const auto E = eigen_matrix(coo);
  const auto A = io::read_matrix_market<Scalar>(test::matrix_path(name));
  ASSERT_EQ(A.num_rows(), oracle["rows"].as<int>()) << name;
  ASSERT_EQ(A.num_cols(), oracle["cols"].as<int>()) << name;
  ASSERT_EQ(A.nnz(), oracle["nnz"].as<long long>()) << name;
  ASSERT_EQ(E.nonZeros(), oracle["nnz"].as<long long>()) << name;
  const auto spmv = oracle["spmv"];

  for (SpmvMode mode : all_modes) {
    const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
    const test::ReferenceProduct ref[2] = {
        eigen_reference(E, coo, mode, input_vector(0, transposed ? coo.num_rows : coo.num_cols)),
        eigen_reference(E, coo, mode, input_vector(1, transposed ? coo.num_rows : coo.num_cols))};
    // The reader and the reference against scipy: oracles exist for A*ones, A*cos, A^T*ones, A^H*cos.
    const char* oracle_key[2] = {mode == SpmvMode::no_transpose ? "A_ones"
                                 : mode == SpmvMode::transpose  ? "AT_ones"
                                                                : nullptr,
                                 mode == SpmvMode::no_transpose          ? "A_cos"
                                 : mode == SpmvMode::conjugate_transpose ? "AH_cos"
                                                                         : nullptr};
    for (int j = 0; j < 2; ++j) {
      if (oracle_key[j] != nullptr) {
        expect_matches_summary(ref[j].value, spmv[oracle_key[j]], name + " reference " + oracle_key[j]);
      }
    }

    for (auto algorithm : {SpmvAlgorithm::row_parallel, SpmvAlgorithm::merge_path, SpmvAlgorithm::automatic}) {
      for (int variant = 0; variant < 3; ++variant) {
        const bool multivector = variant > 0;
        const auto y = variant == 2 ? products<Scalar, Kokkos::LayoutRight>(A, mode, algorithm, multivector)
                                    : products<Scalar, Kokkos::LayoutLeft>(A, mode, algorithm, multivector);
        const std::string what = name + " (" + kernels::to_string(mode) + ", " +
                                 kernels::to_string(algorithm) + ", " +
                                 (variant == 0 ? "two vectors" : variant == 1 ? "layout left" : "layout right") + ")";
        EXPECT_TRUE(test::within_spmv_bound(y[0], ref[0])) << what << " x = ones";
        EXPECT_TRUE(test::within_spmv_bound(y[1], ref[1])) << what << " x = cos(i)";
        if (algorithm == SpmvAlgorithm::automatic && variant == 0) {
          for (int j = 0; j < 2; ++j) {
            if (oracle_key[j] != nullptr) expect_matches_summary(y[j], spmv[oracle_key[j]], what + " " + oracle_key[j]);
          }
        }
      }
    }
  }
}

TEST(SpmvOracle, MatchesAnIndependentReferenceOnEverySharedMatrix) {
  const auto names = test::shared_matrix_names();
  ASSERT_GE(names.size(), 20u) << "shared matrices not found in " << test::matrices_dir();
  int checked = 0;
  for (const auto& name : names) {
    const YAML::Node oracle = YAML::LoadFile(test::oracle_path(name));
    ASSERT_TRUE(oracle["spmv"]) << name << ": oracle without an spmv block";
    if (oracle["field"].as<std::string>() == "complex") {
      check_matrix<Complex>(name, oracle);
    } else {
      check_matrix<double>(name, oracle);
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(names.size()));
}

}  // namespace
}  // namespace kelp::spmv_oracle_test

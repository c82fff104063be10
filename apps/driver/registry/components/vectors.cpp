#include "kelp/apps/driver/registry/components/vectors.hpp"

#include <random>

#include "kelp/apps/driver/problem/input_files.hpp"
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace kelp::solvers::components {

using config::Bounds;
using config::FieldVisitor;
using config::Presence;

void random_rhs_fields(FieldVisitor& v, RandomRhsParams& p) {
  v.field("seed", p.seed, Bounds::at_least(0));
}

void file_vector_fields(FieldVisitor& v, FileVectorParams& p) {
  v.file("file", p.file, Presence::required);
}

namespace {

template <class Matrix>
using scalar_of = typename std::decay_t<Matrix>::scalar_type;

template <class Scalar>
ConfigVector<Scalar> uninitialized(const ConfigMatrix<Scalar>& A, const char* label) {
  return ConfigVector<Scalar>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                              A.num_rows());
}

template <class Scalar>
ConfigVector<Scalar> random_vector(const RandomRhsParams& p, const ConfigMatrix<Scalar>& A) {
  auto b = uninitialized(A, "kelp::problem::b");
  auto host = Kokkos::create_mirror_view(b);
  std::mt19937_64 engine(static_cast<std::uint64_t>(p.seed));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (std::size_t i = 0; i < host.extent(0); ++i) {
    if constexpr (is_complex<Scalar>::value) {
      const double re = uniform(engine);
      host(i) = Scalar(re, uniform(engine));
    } else {
      host(i) = static_cast<Scalar>(uniform(engine));
    }
  }
  Kokkos::deep_copy(b, host);
  return b;
}

}  // namespace

void register_rhs(VectorRegistry& r) {
  r.add<NoParams>("ones", "b = (1, ..., 1)", no_fields, [](const NoParams&, const auto& A) {
    using S = scalar_of<decltype(A)>;
    auto b = uninitialized(A, "kelp::problem::b");
    kernels::fill(b, S(1));
    return b;
  });
  r.add<RandomRhsParams>("random", "b uniform in [-1, 1], seeded", random_rhs_fields,
                         [](const RandomRhsParams& p, const auto& A) { return random_vector(p, A); });
  r.add<FileVectorParams>("file", "b read from a one-column Matrix Market file",
                          file_vector_fields, [](const FileVectorParams& p, const auto& A) {
                            using S = scalar_of<decltype(A)>;
                            return read_vector_file<S>("problem.rhs", p.file, A.num_rows());
                          });
  r.add<NoParams>("A_times_ones", "b = A * (1, ..., 1), so that x = 1 solves A x = b", no_fields,
                  [](const NoParams&, const auto& A) {
                    using S = scalar_of<decltype(A)>;
                    ConfigVector<S> ones("kelp::problem::ones", A.num_cols());
                    kernels::fill(ones, S(1));
                    auto b = uninitialized(A, "kelp::problem::b");
                    kernels::spmv(S(1), A, ones, S(0), b);
                    return b;
                  });
}

void register_initial_guesses(VectorRegistry& r) {
  r.add<NoParams>("zero", "x0 = 0", no_fields, [](const NoParams&, const auto& A) {
    using S = scalar_of<decltype(A)>;
    return ConfigVector<S>("kelp::problem::x0", A.num_rows());  // zero-initialized
  });
  r.add<FileVectorParams>("file", "x0 read from a one-column Matrix Market file",
                          file_vector_fields, [](const FileVectorParams& p, const auto& A) {
                            using S = scalar_of<decltype(A)>;
                            return read_vector_file<S>("problem.initial_guess", p.file,
                                                       A.num_rows());
                          });
}

}  // namespace kelp::solvers::components

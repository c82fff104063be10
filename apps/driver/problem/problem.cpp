#include "kelp/apps/driver/problem/problem.hpp"

#include <random>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace kelp::solvers {

using config::Bounds;
using config::FieldVisitor;
using config::Presence;

namespace {

const Bounds grid_size = Bounds::at_least(1);

void laplace1d_fields(FieldVisitor& v, Laplace1dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
}
void laplace2d_fields(FieldVisitor& v, Laplace2dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
}
void laplace3d_fields(FieldVisitor& v, Laplace3dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("nz", p.nz, grid_size, Presence::required);
}
void anisotropic2d_fields(FieldVisitor& v, Anisotropic2dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("epsilon", p.epsilon, Bounds::greater_than(0));
  v.field("theta", p.theta);
}
void convection_diffusion_fields(FieldVisitor& v, ConvectionDiffusionParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("nz", p.nz, grid_size);
  v.field("wx", p.wx);
  v.field("wy", p.wy);
  v.field("wz", p.wz);
}
void random_rhs_fields(FieldVisitor& v, RandomRhsParams& p) {
  v.field("seed", p.seed, Bounds::at_least(0));
}
void file_rhs_fields(FieldVisitor& v, FileRhsParams& p) {
  v.file("file", p.file, Presence::required);
}

void register_generators(GeneratorRegistry& r) {
  using generators::anisotropic2d;
  r.add<Laplace1dParams>("laplace1d", "1D Laplacian, 3-point stencil, SPD", laplace1d_fields,
                         [](const Laplace1dParams& p) {
                           return generators::laplace1d<ConfigScalar, ConfigDevice>(p.nx);
                         });
  r.add<Laplace2dParams>("laplace2d", "2D Laplacian, 5-point stencil, SPD", laplace2d_fields,
                         [](const Laplace2dParams& p) {
                           return generators::laplace2d<ConfigScalar, ConfigDevice>(p.nx, p.ny);
                         });
  r.add<Laplace2dParams>("laplace2d_9pt", "2D Laplacian, 9-point stencil, SPD", laplace2d_fields,
                         [](const Laplace2dParams& p) {
                           return generators::laplace2d_9pt<ConfigScalar, ConfigDevice>(p.nx,
                                                                                       p.ny);
                         });
  r.add<Laplace3dParams>("laplace3d", "3D Laplacian, 7-point stencil, SPD", laplace3d_fields,
                         [](const Laplace3dParams& p) {
                           return generators::laplace3d<ConfigScalar, ConfigDevice>(p.nx, p.ny,
                                                                                   p.nz);
                         });
  r.add<Laplace3dParams>("laplace3d_27pt", "3D Laplacian, 27-point stencil, SPD",
                         laplace3d_fields, [](const Laplace3dParams& p) {
                           return generators::laplace3d_27pt<ConfigScalar, ConfigDevice>(
                               p.nx, p.ny, p.nz);
                         });
  r.add<Anisotropic2dParams>(
      "anisotropic2d", "rotated anisotropic 2D diffusion, SPD", anisotropic2d_fields,
      [](const Anisotropic2dParams& p) {
        return anisotropic2d<ConfigScalar, ConfigDevice>(p.nx, p.ny, p.epsilon, p.theta);
      });
  r.add<ConvectionDiffusionParams>(
      "convection_diffusion", "upwinded convection-diffusion, nonsymmetric M-matrix",
      convection_diffusion_fields, [](const ConvectionDiffusionParams& p) {
        return generators::convection_diffusion<ConfigScalar, ConfigDevice>(p.nx, p.ny, p.nz,
                                                                            p.wx, p.wy, p.wz);
      });
}

ConfigVector make_vector(const ConfigMatrix& A, const char* label) {
  return ConfigVector(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), A.num_rows());
}

void register_rhs(RhsRegistry& r) {
  r.add<NoParams>("ones", "b = (1, ..., 1)", no_fields,
                  [](const NoParams&, const ConfigMatrix& A) {
                    auto b = make_vector(A, "kelp::problem::b");
                    kernels::fill(b, ConfigScalar(1));
                    return b;
                  });
  r.add<RandomRhsParams>(
      "random", "b uniform in [-1, 1], seeded", random_rhs_fields,
      [](const RandomRhsParams& p, const ConfigMatrix& A) {
        auto b = make_vector(A, "kelp::problem::b");
        auto host = Kokkos::create_mirror_view(b);
        std::mt19937_64 engine(static_cast<std::uint64_t>(p.seed));
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (std::size_t i = 0; i < host.extent(0); ++i) host(i) = uniform(engine);
        Kokkos::deep_copy(b, host);
        return b;
      });
  r.add<FileRhsParams>(
      "file", "b read from a one-column Matrix Market file", file_rhs_fields,
      [](const FileRhsParams& p, const ConfigMatrix& A) {
        auto file = io::read_vector_matrix_market<ConfigScalar, ConfigDevice>(p.file);
        KELP_REQUIRE(static_cast<long long>(file.extent(0)) == A.num_rows(), DimensionMismatch,
                     "problem.rhs: dimension mismatch: " << p.file << " has " << file.extent(0)
                         << " rows, the matrix has " << A.num_rows());
        auto b = make_vector(A, "kelp::problem::b");
        Kokkos::deep_copy(b, file);
        return b;
      });
  r.add<NoParams>("A_times_ones", "b = A * (1, ..., 1), so that x = 1 solves A x = b",
                  no_fields, [](const NoParams&, const ConfigMatrix& A) {
                    ConfigVector ones("kelp::problem::ones", A.num_cols());
                    kernels::fill(ones, ConfigScalar(1));
                    auto b = make_vector(A, "kelp::problem::b");
                    kernels::spmv(ConfigScalar(1), A, ones, ConfigScalar(0), b);
                    return b;
                  });
}

}  // namespace

GeneratorRegistry& generator_registry() {
  static GeneratorRegistry registry("generator");
  static const bool registered = (register_generators(registry), true);
  (void)registered;
  return registry;
}

RhsRegistry& rhs_registry() {
  static RhsRegistry registry("rhs");
  static const bool registered = (register_rhs(registry), true);
  (void)registered;
  return registry;
}

void matrix_file_fields(FieldVisitor& v, MatrixFileParams& params) {
  v.file("file", params.file, Presence::required);
}

ProblemConfig parse_problem_config(const config::ConfigNode& node) {
  if (node.is_null() || !node.is_map()) {
    node.fail("expected a map with keys [generator or matrix, rhs]");
  }
  node.expect_keys({"generator", "matrix", "rhs"});
  ProblemConfig config;
  const auto generator = node.find("generator");
  const auto matrix = node.find("matrix");
  if (generator && matrix) {
    generator->fail("'generator' and 'matrix' are exclusive; give exactly one (generator types: " +
              config::emit_flow(YAML::Node(generator_registry().types())) + ")");
  }
  if (!generator && !matrix) {
    node.fail("missing 'generator' or 'matrix'; give exactly one (generator types: " +
              config::emit_flow(YAML::Node(generator_registry().types())) + ")");
  }
  if (generator) {
    config.generator = generator_registry().parse(*generator);
  } else {
    if (matrix->is_null() || !matrix->is_map()) matrix->fail("expected a map {file: ...}");
    config::read_params(*matrix, config.matrix, matrix_file_fields);
  }
  if (const auto rhs = node.find("rhs")) config.rhs = rhs_registry().parse(*rhs);
  return config;
}

YAML::Node write_problem_config(const ProblemConfig& config) {
  YAML::Node out(YAML::NodeType::Map);
  if (!config.generator.empty()) {
    out["generator"] = config.generator.write();
  } else {
    out["matrix"] = config::write_params(config.matrix, matrix_file_fields);
  }
  out["rhs"] = config.rhs.write();
  return out;
}

Problem build_problem(const ProblemConfig& config) {
  Problem problem;
  if (!config.generator.empty()) {
    problem.A = generator_registry().build(config.generator);
    problem.matrix_description = config.generator.summary();
  } else {
    const std::string& file = config.matrix.file;
    problem.A = io::read_matrix_market<ConfigScalar, Ordinal, Offset, ConfigDevice>(file);
    problem.matrix_description = "matrix " + file;
    KELP_REQUIRE(problem.A.num_rows() == problem.A.num_cols(), InvalidArgument,
                 "problem.matrix: " << file << " is " << problem.A.num_rows() << " x "
                                    << problem.A.num_cols() << "; the solvers need a square matrix");
  }
  problem.matrix_name = config.generator.empty() ? config.matrix.file : config.generator.summary();
  problem.b = rhs_registry().build(config.rhs, problem.A);
  problem.rhs_description = config.rhs.summary();
  return problem;
}

}  // namespace kelp::solvers

#include "kelp/apps/driver/problem/problem.hpp"

#include "kelp/apps/driver/problem/input_files.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

namespace kelp::solvers {

using config::FieldVisitor;
using config::Presence;

void matrix_file_fields(FieldVisitor& v, MatrixFileParams& params) {
  v.file("file", params.file, Presence::required);
}

ProblemConfig parse_problem_config(const config::ConfigNode& node) {
  if (node.is_null() || !node.is_map()) {
    node.fail("expected a map with keys [scalar, generator or matrix, rhs, initial_guess]");
  }
  node.expect_keys({"scalar", "generator", "matrix", "rhs", "initial_guess"});
  ProblemConfig config;
  if (const auto scalar = node.find("scalar")) {
    config.scalar = config::read_choice(*scalar, scalar_kinds());
  }
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
  if (const auto guess = node.find("initial_guess")) {
    config.initial_guess = initial_guess_registry().parse(*guess);
  }
  return config;
}

YAML::Node write_problem_config(const ProblemConfig& config) {
  YAML::Node out(YAML::NodeType::Map);
  out["scalar"] = to_string(config.scalar);
  if (!config.generator.empty()) {
    out["generator"] = config.generator.write();
  } else {
    out["matrix"] = config::write_params(config.matrix, matrix_file_fields);
  }
  out["rhs"] = config.rhs.write();
  out["initial_guess"] = config.initial_guess.write();
  return out;
}

template <class Scalar>
Problem<Scalar> build_problem(const ProblemConfig& config) {
  KELP_REQUIRE(scalar_kind_of<Scalar>() == config.scalar, InvalidArgument,
               "kelp::solvers::build_problem: built for scalar "
                   << to_string(scalar_kind_of<Scalar>()) << ", but problem.scalar is "
                   << to_string(config.scalar));
  Problem<Scalar> problem;
  ProblemDescription& d = problem.description;
  if (!config.generator.empty()) {
    problem.A = generator_registry().build<Scalar>(config.generator, ScalarTag<Scalar>{});
    d.matrix = config.generator.summary();
    d.matrix_name = d.matrix;
  } else {
    const std::string& file = config.matrix.file;
    require_scalar_fits("problem.matrix", file, config.scalar);
    problem.A = with_key("problem.matrix.file",
                         [&] { return io::read_matrix_market<Scalar, Ordinal, Offset, ConfigDevice>(file); });
    d.matrix = "matrix " + file;
    d.matrix_name = file;
    KELP_REQUIRE(problem.A.num_rows() == problem.A.num_cols(), InvalidArgument,
                 "problem.matrix: " << file << " is " << problem.A.num_rows() << " x "
                                    << problem.A.num_cols() << "; the solvers need a square matrix");
  }
  problem.b = rhs_registry().build<Scalar>(config.rhs, problem.A);
  problem.x0 = initial_guess_registry().build<Scalar>(config.initial_guess, problem.A);
  d.rhs = config.rhs.summary();
  d.initial_guess = config.initial_guess.summary();
  d.scalar = config.scalar;
  d.num_rows = problem.A.num_rows();
  d.nnz = static_cast<long long>(problem.A.nnz());
  return problem;
}

KELP_ETI_FOR_EACH_SCALAR(KELP_DRIVER_BUILD_PROBLEM, KELP_ETI_DEFINE)

}  // namespace kelp::solvers

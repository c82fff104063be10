#include "kelp/apps/driver/run/run.hpp"

#include <charconv>
#include <chrono>
#include <iomanip>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "kelp/kernels/blas1.hpp"
#include "kelp/apps/driver/config/quoted_string.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace kelp::solvers {

using config::Bounds;
using config::FieldVisitor;

void output_fields(FieldVisitor& v, OutputParams& params) {
  v.field("monitor_every", params.monitor_every, Bounds::at_least(0));
  v.field("print_config", params.print_config);
  v.field("fail_on_no_convergence", params.fail_on_no_convergence);
  v.field("report", params.report);
}

RunConfig parse_run_config(const config::ConfigNode& root) {
  if (root.is_null() || !root.is_map()) {
    root.fail("expected a map with keys [problem, solver, output]");
  }
  root.expect_keys({"problem", "solver", "output"});
  RunConfig config;
  config.problem = parse_problem_config(root.get("problem"));
  config.solver = solver_registry().parse(root.get("solver"));
  if (const auto output = root.find("output")) {
    config::read_params(*output, config.output, output_fields);
  }
  return config;
}

YAML::Node write_run_config(const RunConfig& config) {
  YAML::Node out(YAML::NodeType::Map);
  out["problem"] = write_problem_config(config.problem);
  out["solver"] = config.solver.write();
  out["output"] = config::write_params(config.output, output_fields);
  return out;
}

std::string effective_config(const RunConfig& config) {
  return config::emit_yaml(write_run_config(config));
}

RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  auto document = config::ConfigDocument::from_file(path);
  for (const auto& assignment : overrides) document.apply_override(assignment);
  return parse_run_config(document.root());
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  Kokkos::fence();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string sci(double value, int digits = 3) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", digits, value);
  return buffer;
}

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string monitor_line(int iteration, double residual, double relative) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "iter %5d  residual %.3e  relative %.3e", iteration,
                residual, relative);
  return buffer;
}

/// ||b - A x||, with its own SpMV (not the solver's operator), so the check is independent.
double true_residual_norm(const ConfigMatrix& A, ConstConfigVector b, ConstConfigVector x) {
  ConfigVector r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::run::residual"),
                 A.num_rows());
  Kokkos::deep_copy(r, b);
  kernels::spmv(ConfigScalar(-1), A, x, ConfigScalar(1), r);  // r = b - A x
  return kernels::nrm2(r);
}

}  // namespace

RunResult run(const RunConfig& config, std::ostream& out) {
  RunResult result;
  if (config.output.print_config) {
    out << "# effective configuration\n" << effective_config(config) << "\n";
  }

  auto start = Clock::now();
  result.problem = build_problem(config.problem);
  result.problem_seconds = seconds_since(start);
  const ConfigMatrix& A = result.problem.A;
  out << "problem: " << result.problem.matrix_description << "\n"
      << "  rows " << A.num_rows() << ", nnz " << A.nnz() << ", rhs "
      << result.problem.rhs_description << "  (built in " << fixed(result.problem_seconds, 3)
      << " s)\n";

  start = Clock::now();
  auto op = std::make_shared<const MatrixOperator<ConfigMatrix>>(A);
  auto solver = solver_registry().build(config.solver, op, A);
  result.setup_seconds = seconds_since(start);
  result.solver_summary = solver->summary();
  out << "solver: " << result.solver_summary << "\n";

  const int every = config.output.monitor_every;
  const double rhs_norm = kernels::nrm2(result.problem.b);
  if (every > 0) {
    solver->set_monitor([&out, every](int iteration, double residual, double relative) {
      if (iteration % every == 0) out << monitor_line(iteration, residual, relative) << "\n";
    });
    // x0 = 0, so the initial residual is b.
    out << monitor_line(0, rhs_norm, rhs_norm > 0 ? 1.0 : 0.0) << "\n";
  }

  result.x = ConfigVector("kelp::run::x", A.num_rows());  // zero initial guess
  start = Clock::now();
  result.solve = solver->solve(result.problem.b, result.x);
  result.solve_seconds = seconds_since(start);

  result.true_residual_norm = true_residual_norm(A, result.problem.b, result.x);
  result.true_relative_residual =
      rhs_norm > 0 ? result.true_residual_norm / rhs_norm : result.true_residual_norm;
  const bool converged = result.solve.converged();
  result.exit_code = converged || !config.output.fail_on_no_convergence ? ExitCode::success
                                                                        : ExitCode::not_converged;

  const auto label = [&out](const char* name) -> std::ostream& {
    return out << "  " << std::left << std::setw(24) << name << std::right;
  };
  out << "summary:\n";
  label("iterations") << result.solve.iterations << "\n";
  label("stop reason") << to_string(result.solve.reason) << (converged ? "" : "  (NOT converged)")
                       << "\n";
  label("true relative residual") << sci(result.true_relative_residual)
                                  << "  (||b - A x|| / ||b||, recomputed)\n";
  label("setup time") << fixed(result.setup_seconds, 3) << " s\n";
  label("solve time") << fixed(result.solve_seconds, 3) << " s";
  if (result.solve.iterations > 0) {
    out << "  (" << fixed(1e3 * result.solve_seconds / result.solve.iterations, 3)
        << " ms/iteration)";
  }
  out << "\n";

  if (!config.output.report.empty()) {
    write_report(config.output.report, config, result);
    out << "report: " << config.output.report << "\n";
  }
  out.flush();
  return result;
}

// --- JSON report ---------------------------------------------------------------------------------

namespace {

std::string json_string(const std::string& text) { return config::quoted_string(text, "\\u%04x"); }

std::string json_number(double value) {
  return std::isfinite(value) ? config::format_double(value) : "null";
}

/// A configuration scalar as JSON: numbers and booleans as such, everything else a string.
std::string json_scalar(const std::string& text) {
  if (text == "true" || text == "false") return text;
  double value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (!text.empty() && error == std::errc() && end == last && std::isfinite(value)) return text;
  return json_string(text);
}

void json_config(std::ostream& out, const YAML::Node& node, int depth) {
  if (node.IsMap()) {
    const std::string indent(2 * (depth + 1), ' ');
    out << "{";
    bool first = true;
    for (auto it = node.begin(); it != node.end(); ++it) {
      out << (first ? "\n" : ",\n") << indent << json_string(it->first.Scalar()) << ": ";
      json_config(out, it->second, depth + 1);
      first = false;
    }
    out << "\n" << std::string(2 * depth, ' ') << "}";
  } else if (node.IsScalar()) {
    out << json_scalar(node.Scalar());
  } else {
    out << "null";
  }
}

}  // namespace

void write_report(const std::string& path, const RunConfig& config, const RunResult& result) {
  std::ostringstream out;
  const SolveResult& s = result.solve;
  out << "{\n  \"config\": ";
  json_config(out, write_run_config(config), 1);
  out << ",\n  \"problem\": {\"matrix\": " << json_string(result.problem.matrix_description)
      << ", \"rhs\": " << json_string(result.problem.rhs_description)
      << ", \"num_rows\": " << result.problem.A.num_rows()
      << ", \"nnz\": " << result.problem.A.nnz() << "},\n"
      << "  \"solver\": " << json_string(result.solver_summary) << ",\n"
      << "  \"iterations\": " << s.iterations << ",\n"
      << "  \"stop_reason\": " << json_string(to_string(s.reason)) << ",\n"
      << "  \"converged\": " << (s.converged() ? "true" : "false") << ",\n"
      << "  \"rhs_norm\": " << json_number(s.rhs_norm) << ",\n"
      << "  \"initial_residual_norm\": " << json_number(s.initial_residual_norm) << ",\n"
      << "  \"residual_norm\": " << json_number(s.residual_norm) << ",\n"
      << "  \"true_residual_norm\": " << json_number(result.true_residual_norm) << ",\n"
      << "  \"true_relative_residual\": " << json_number(result.true_relative_residual) << ",\n"
      << "  \"problem_seconds\": " << json_number(result.problem_seconds) << ",\n"
      << "  \"setup_seconds\": " << json_number(result.setup_seconds) << ",\n"
      << "  \"solve_seconds\": " << json_number(result.solve_seconds) << ",\n"
      << "  \"exit_code\": " << static_cast<int>(result.exit_code) << ",\n"
      << "  \"residual_history\": [";
  for (std::size_t i = 0; i < s.residual_history.size(); ++i) {
    out << (i ? ", " : "") << json_number(s.residual_history[i]);
  }
  out << "]\n}\n";

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  KELP_REQUIRE(file.good(), FileError,
               "kelp::solvers::write_report: cannot open '" << path << "' for writing");
  file << out.str();
  file.close();
  KELP_REQUIRE(!file.fail(), FileError,
               "kelp::solvers::write_report: writing '" << path << "' failed");
}

}  // namespace kelp::solvers

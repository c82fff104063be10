#include "kelp/apps/driver/run/run.hpp"

#include <charconv>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
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

/// Fails when `path` cannot be written, without destroying an existing file: opens it for
/// appending (which creates a missing file and never truncates) and removes it again when the
/// check created it.
void check_writable(const std::string& path, const std::string& what) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "ab");
  const int error = errno;
  KELP_REQUIRE(file != nullptr, FileError,
               "kelp::solvers::run: " << what << ": cannot write '" << path << "': "
                                      << (error != 0 ? std::strerror(error) : "cannot open"));
  std::fclose(file);
  if (!existed) std::filesystem::remove(path, ec);
}

}  // namespace

void check_output_paths(const RunConfig& config) {
  if (!config.output.report.empty()) check_writable(config.output.report, "output.report");
}

RunResult run(const RunConfig& config, std::ostream& out) {
  RunResult result;
  check_output_paths(config);
  if (config.output.print_config) {
    out << "# effective configuration\n" << effective_config(config) << "\n";
  }

  auto start = Clock::now();
  {
    ProfilingRegion region("kelp::run::problem");
    result.problem = build_problem(config.problem);
    result.problem_seconds = seconds_since(start);
  }
  const ConfigMatrix& A = result.problem.A;
  out << "problem: " << result.problem.matrix_description << "\n"
      << "  rows " << A.num_rows() << ", nnz " << A.nnz() << ", rhs "
      << result.problem.rhs_description << "  (built in " << fixed(result.problem_seconds, 3)
      << " s)\n";

  start = Clock::now();
  std::shared_ptr<LinearSolver> solver;
  {
    ProfilingRegion region("kelp::run::setup");  // solver and preconditioner, incl. their setup
    auto op = std::make_shared<const MatrixOperator<ConfigMatrix>>(A);
    solver = solver_registry().build(config.solver, op, NamedMatrix{A, result.problem.matrix_name});
    result.setup_seconds = seconds_since(start);
  }
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
  {
    ProfilingRegion region("kelp::run::solve");
    result.solve = solver->solve(result.problem.b, result.x);
    result.solve_seconds = seconds_since(start);
  }

  {
    ProfilingRegion region("kelp::run::true_residual");
    result.true_residual_norm = true_residual_norm(A, result.problem.b, result.x);
  }
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

using Json = nlohmann::ordered_json;  // keys in the order written: readable reports

/// JSON has no NaN or infinity: non-finite values are written as null.
Json number_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

/// A configuration scalar as JSON: true/false as booleans, integers and finite numbers as
/// numbers, everything else as a string.
Json json_scalar(const std::string& text) {
  if (text == "true" || text == "false") return Json(text == "true");
  const char* first = text.data();
  const char* last = first + text.size();
  long long integer = 0;
  if (const auto [end, error] = std::from_chars(first, last, integer);
      !text.empty() && error == std::errc() && end == last) {
    return Json(integer);
  }
  double value = 0;
  if (const auto [end, error] = std::from_chars(first, last, value);
      !text.empty() && error == std::errc() && end == last && std::isfinite(value)) {
    return Json(value);
  }
  return Json(text);
}

Json json_config(const YAML::Node& node) {
  if (node.IsMap()) {
    Json object = Json::object();
    for (auto it = node.begin(); it != node.end(); ++it) {
      object[it->first.Scalar()] = json_config(it->second);
    }
    return object;
  }
  if (node.IsSequence()) {
    Json array = Json::array();
    for (const auto& item : node) array.push_back(json_config(item));
    return array;
  }
  if (node.IsScalar()) return json_scalar(node.Scalar());
  return Json(nullptr);
}

}  // namespace

void write_report(const std::string& path, const RunConfig& config, const RunResult& result) {
  const SolveResult& s = result.solve;
  Json report;
  report["config"] = json_config(write_run_config(config));
  report["problem"] = {{"matrix", result.problem.matrix_description},
                       {"rhs", result.problem.rhs_description},
                       {"num_rows", static_cast<long long>(result.problem.A.num_rows())},
                       {"nnz", static_cast<long long>(result.problem.A.nnz())}};
  report["solver"] = result.solver_summary;
  report["iterations"] = s.iterations;
  report["stop_reason"] = to_string(s.reason);
  report["converged"] = s.converged();
  report["rhs_norm"] = number_or_null(s.rhs_norm);
  report["initial_residual_norm"] = number_or_null(s.initial_residual_norm);
  report["residual_norm"] = number_or_null(s.residual_norm);
  report["true_residual_norm"] = number_or_null(result.true_residual_norm);
  report["true_relative_residual"] = number_or_null(result.true_relative_residual);
  report["problem_seconds"] = number_or_null(result.problem_seconds);
  report["setup_seconds"] = number_or_null(result.setup_seconds);
  report["solve_seconds"] = number_or_null(result.solve_seconds);
  report["exit_code"] = static_cast<int>(result.exit_code);
  Json history = Json::array();
  for (double value : s.residual_history) history.push_back(number_or_null(value));
  report["residual_history"] = std::move(history);
  // Invalid UTF-8 (a file name, say) becomes U+FFFD instead of an exception.
  const std::string text = report.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  KELP_REQUIRE(file.good(), FileError,
               "kelp::solvers::write_report: cannot open '" << path << "' for writing");
  file << text;
  file.close();
  KELP_REQUIRE(!file.fail(), FileError,
               "kelp::solvers::write_report: writing '" << path << "' failed");
}

}  // namespace kelp::solvers

#include "kelp/apps/driver/run/run.hpp"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "kelp/apps/driver/registry/components/vectors.hpp"
#include "kelp/apps/driver/run/eigen_task.hpp"
#include "kelp/apps/driver/run/dos_task.hpp"
#include "kelp/apps/driver/run/dist_solve_task.hpp"
#include "kelp/apps/driver/run/dist_tasks.hpp"
#include "kelp/apps/driver/run/solve_task.hpp"

namespace kelp::solvers {

using config::Bounds;
using config::FieldVisitor;

const config::Choices<TaskKind>& task_kinds() {
  static const config::Choices<TaskKind> choices{{TaskKind::solve, "solve"},
                                                {TaskKind::eigen, "eigen"},
                                                {TaskKind::dos, "dos"}};
  return choices;
}

void task_fields(FieldVisitor& v, TaskParams& params) {
  v.field("type", params.type, task_kinds());
  v.field("repeat", params.repeat, Bounds::at_least(1));
}

void output_fields(FieldVisitor& v, OutputParams& params) {
  v.field("monitor_every", params.monitor_every, Bounds::at_least(0));
  v.field("print_config", params.print_config);
  v.field("fail_on_no_convergence", params.fail_on_no_convergence);
  v.field("report", params.report);
  v.field("solution", params.solution);
}

const config::Choices<PartitionMethod>& partition_methods() {
  static const config::Choices<PartitionMethod> choices{{PartitionMethod::rows, "rows"},
                                                        {PartitionMethod::nonzeros, "nonzeros"},
                                                        {PartitionMethod::metis, "metis"}};
  return choices;
}

void distribution_fields(FieldVisitor& v, DistributionParams& params) {
  v.field("partition", params.partition, partition_methods());
}

const std::vector<TaskEntry>& task_table() {
  static const std::vector<TaskEntry> table{
      {TaskKind::solve, "solve A x = b with the configured solver", run_solve_task},
      {TaskKind::eigen, "a few eigenpairs of A with LOBPCG (the eigen section)", run_eigen_task},
      {TaskKind::dos, "the KPM density of states of A (the dos section)", run_dos_task},
  };
  return table;
}

namespace {

/// Tasks eigen and dos run once on A alone: keys that only task solve reads are refused where
/// they stand, not ignored (a user who gave them expects them to act).
void refuse_solve_only_keys(const config::ConfigNode& root, TaskKind task) {
  const std::string name = task_kinds().name(task);
  if (const auto t = root.find("task"); t && t->is_map()) {
    if (const auto repeat = t->find("repeat"); repeat && repeat->as_integer() != 1) {
      repeat->fail("task " + name + " runs once; repeat is read by task solve only");
    }
  }
  if (const auto solver = root.find("solver")) {
    solver->fail("task " + name + " does not read the solver section" +
                 (task == TaskKind::eigen ? "; LOBPCG's settings and preconditioner go in the eigen section"
                                          : "; the KPM settings go in the dos section"));
  }
  const auto problem = root.get("problem");
  for (const char* key : {"rhs", "initial_guess"}) {
    if (const auto node = problem.find(key)) {
      node->fail("task " + name + " does not use a right-hand side or an initial guess; remove " + key);
    }
  }
  if (task == TaskKind::dos) {
    if (const auto output = root.find("output"); output && output->is_map()) {
      const auto solution = output->find("solution");
      if (solution && !solution->is_null() && !solution->as_string().empty()) {
        solution->fail("task dos writes no solution; its results go to dos.csv and output.report");
      }
    }
  }
}

}  // namespace

RunConfig parse_run_config(const config::ConfigNode& root) {
  if (root.is_null() || !root.is_map()) {
    root.fail("expected a map with keys [task, problem, solver, eigen, dos, output, distribution]");
  }
  root.expect_keys({"task", "problem", "solver", "eigen", "dos", "output", "distribution"});
  RunConfig config;
  if (const auto task = root.find("task")) {
    if (task->is_scalar()) {  // shorthand: "task: solve" means {type: solve}
      config.task.type = config::read_choice(*task, task_kinds());
    } else {
      if (task->is_null() || !task->is_map()) task->fail("expected a task name or a map {type: ...}");
      config::read_params(*task, config.task, task_fields);
    }
  }
  config.problem = parse_problem_config(root.get("problem"));
  if (config.task.type != TaskKind::solve) refuse_solve_only_keys(root, config.task.type);
  // The solver section is required for task solve; task eigen reads the eigen section.
  if (config.task.type == TaskKind::solve) config.solver = solver_registry().parse(root.get("solver"));
  if (const auto eigen = root.find("eigen")) {
    if (config.task.type != TaskKind::eigen) eigen->fail("the eigen section needs task: eigen");
    config::read_params(*eigen, config.eigen, eigen_config_fields);
  }
  if (const auto dos = root.find("dos")) {
    if (config.task.type != TaskKind::dos) dos->fail("the dos section needs task: dos");
    config::read_params(*dos, config.dos, dos_config_fields);
    // A rule across sections, at the key's location (it was found only after the problem was built).
    const solvers::KpmParams& p = config.dos.params;
    if (p.random_vector == KpmRandomVector::random_phase && p.trace == KpmTrace::stochastic &&
        config.problem.scalar != ScalarKind::complex_double) {
      dos->get("random_vector").fail("random_phase needs a complex Hamiltonian (problem.scalar: complex); use "
                                     "rademacher for real ones");
    }
  }
  if (const auto output = root.find("output")) {
    config::read_params(*output, config.output, output_fields);
  }
  if (const auto distribution = root.find("distribution")) {
    if (distribution->is_null() || !distribution->is_map()) distribution->fail("expected a map {partition: ...}");
    config::read_params(*distribution, config.distribution, distribution_fields);
    config.distributed = true;
  }
  return config;
}

YAML::Node write_run_config(const RunConfig& config) {
  YAML::Node out(YAML::NodeType::Map);
  out["task"] = config::write_params(config.task, task_fields);
  out["problem"] = write_problem_config(config.problem);
  if (config.task.type != TaskKind::solve) {  // read by task solve only (refuse_solve_only_keys)
    out["problem"].remove("rhs");
    out["problem"].remove("initial_guess");
  }
  if (!config.solver.empty()) out["solver"] = config.solver.write();
  if (config.task.type == TaskKind::eigen) {
    out["eigen"] = config::write_params(config.eigen, eigen_config_fields);
  }
  if (config.task.type == TaskKind::dos) {
    out["dos"] = config::write_params(config.dos, dos_config_fields);
  }
  out["output"] = config::write_params(config.output, output_fields);
  if (config.distributed) out["distribution"] = config::write_params(config.distribution, distribution_fields);
  return out;
}

std::string effective_config(const RunConfig& config) {
  return config::emit_yaml(write_run_config(config));
}

RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  auto document = config::ConfigDocument::from_file(path);
  for (const auto& assignment : overrides) document.apply_override(assignment);
  RunConfig config = parse_run_config(document.root());
  config.config_file = path;
  return config;
}

namespace {

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

/// A file of the configuration and the key (or role) that names it.
struct NamedPath {
  std::string key;
  std::string path;
};

/// The file a vector spec (rhs, initial_guess) reads, or empty when it reads none.
std::string vector_file(const ComponentSpec& spec) {
  return spec.type() == "file" ? spec.params<components::FileVectorParams>().file : std::string();
}

/// The files a run reads.
std::vector<NamedPath> input_paths(const RunConfig& config) {
  std::vector<NamedPath> inputs{{"the configuration file", config.config_file},
                                {"problem.matrix.file", config.problem.matrix.file},
                                {"problem.rhs.file", vector_file(config.problem.rhs)},
                                {"problem.initial_guess.file", vector_file(config.problem.initial_guess)}};
  inputs.erase(std::remove_if(inputs.begin(), inputs.end(), [](const NamedPath& p) { return p.path.empty(); }),
               inputs.end());
  return inputs;
}

/// The files a run writes.
std::vector<NamedPath> output_paths(const RunConfig& config) {
  std::vector<NamedPath> outputs;
  if (!config.output.report.empty()) outputs.push_back({"output.report", config.output.report});
  if (!config.output.solution.empty()) outputs.push_back({"output.solution", config.output.solution});
  if (config.task.type == TaskKind::dos && !config.dos.csv.empty()) outputs.push_back({"dos.csv", config.dos.csv});
  return outputs;
}

/// True when a and b name one file: the same inode when both exist (links, "./x" and "x"),
/// else the same normalised absolute path (an output not written yet).
bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
  const auto normal = [](const std::string& p) {
    std::error_code e;
    const auto canonical = fs::weakly_canonical(fs::absolute(p, e), e);
    return e ? fs::absolute(p).lexically_normal() : canonical;
  };
  return normal(a) == normal(b);
}

void require_distinct(const NamedPath& output, const NamedPath& other, const char* role) {
  KELP_REQUIRE(!same_file(output.path, other.path), FileError,
               "kelp::solvers::run: " << output.key << " '" << output.path << "' is the same file as "
                                      << other.key << " '" << other.path << "'" << role
                                      << "; give " << output.key << " another path");
}

}  // namespace

void check_output_paths(const RunConfig& config) {
  const auto outputs = output_paths(config);
  const auto inputs = input_paths(config);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const auto& input : inputs) require_distinct(outputs[i], input, ", which the run reads");
    for (std::size_t j = 0; j < i; ++j) require_distinct(outputs[i], outputs[j], ", another output of the run");
  }
  for (const auto& output : outputs) check_writable(output.path, output.key);
}

RunResult run(const RunConfig& config, std::ostream& out) {
  // Under MPI the distributed task does it all (only rank 0 checks and writes files).
  if (config.distributed) {
    if (config.task.type == TaskKind::eigen) return run_distributed_eigen(config, out);
    if (config.task.type == TaskKind::dos) return run_distributed_dos(config, out);
    return run_distributed_solve(config, out);
  }
  check_output_paths(config);
  if (config.output.print_config) {
    out << "# effective configuration\n" << effective_config(config) << "\n";
  }
  const auto& table = task_table();
  const auto entry = std::find_if(table.begin(), table.end(),
                                  [&](const TaskEntry& e) { return e.kind == config.task.type; });
  KELP_REQUIRE(entry != table.end(), NotSupported,
               "kelp::solvers::run: task '" << task_kinds().name(config.task.type)
                                            << "' has no entry in the task table");
  RunResult result = entry->run(config, out);
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
  report["task"] = task_kinds().name(config.task.type);
  report["scalar"] = to_string(result.problem.scalar);
  report["problem"] = {{"matrix", result.problem.matrix},
                       {"rhs", result.problem.rhs},
                       {"initial_guess", result.problem.initial_guess},
                       {"num_rows", result.problem.num_rows},
                       {"nnz", result.problem.nnz}};
  report["solver"] = result.solver_summary;
  report["iterations"] = s.iterations;
  report["stop_reason"] = to_string(s.reason);
  report["converged"] =
      s.converged() && !result.converged_in_preconditioned_norm_only && !result.true_residual_misses_tolerance;
  report["rhs_norm"] = number_or_null(s.rhs_norm);
  report["initial_residual_norm"] = number_or_null(s.initial_residual_norm);
  report["residual_norm"] = number_or_null(s.residual_norm);
  report["stopping_norm"] = to_string(s.stopping_norm);  // the norm of residual_history
  report["true_residual_norm"] = number_or_null(result.true_residual_norm);
  report["true_relative_residual"] = number_or_null(result.true_relative_residual);
  report["problem_seconds"] = number_or_null(result.problem_seconds);
  report["setup_symbolic_seconds"] = number_or_null(result.setup_symbolic_seconds);
  report["setup_numeric_seconds"] = number_or_null(result.setup_numeric_seconds);
  report["solve_seconds"] = number_or_null(result.solve_seconds);
  Json repetitions = Json::array();
  for (const Repetition& r : result.repetitions) {
    repetitions.push_back({{"setup_numeric_seconds", number_or_null(r.setup_numeric_seconds)},
                           {"solve_seconds", number_or_null(r.solve_seconds)},
                           {"iterations", r.solve.iterations},
                           {"stop_reason", to_string(r.solve.reason)}});
  }
  report["repetitions"] = std::move(repetitions);
  if (!config.output.solution.empty()) report["solution"] = config.output.solution;
  report["exit_code"] = static_cast<int>(result.exit_code);
  Json history = Json::array();
  for (double value : s.residual_history) history.push_back(number_or_null(value));
  report["residual_history"] = std::move(history);
  if (config.task.type == TaskKind::eigen) {
    const EigenOutcome& e = result.eigen;
    Json eigen;
    Json values = Json::array(), residuals = Json::array(), true_residuals = Json::array();
    for (double v : e.eigenvalues) values.push_back(number_or_null(v));
    for (double v : e.residual_norms) residuals.push_back(number_or_null(v));
    for (double v : e.true_residual_norms) true_residuals.push_back(number_or_null(v));
    eigen["eigenvalues"] = std::move(values);
    eigen["residual_norms"] = std::move(residuals);
    eigen["true_residual_norms"] = std::move(true_residuals);
    eigen["converged_at"] = e.converged_at;
    eigen["restarts"] = e.restarts;
    Json per_pair = Json::array();
    for (const auto& row : e.residual_history) {
      Json r = Json::array();
      for (double v : row) r.push_back(number_or_null(v));
      per_pair.push_back(std::move(r));
    }
    eigen["residual_history"] = std::move(per_pair);
    report["eigen"] = std::move(eigen);
  }
  if (config.task.type == TaskKind::dos) {
    // Energies and rho side by side: enough for a later plot of the DOS (apps/plot).
    const KpmDosResult& d = result.dos.result;
    Json dos;
    Json energies = Json::array(), density = Json::array(), error = Json::array(),
         moments = Json::array();
    for (double v : d.energies) energies.push_back(number_or_null(v));
    for (double v : d.density) density.push_back(number_or_null(v));
    for (double v : d.density_error) error.push_back(number_or_null(v));
    for (double v : d.moments) moments.push_back(number_or_null(v));
    dos["energies"] = std::move(energies);
    dos["density"] = std::move(density);
    dos["density_error"] = std::move(error);
    dos["moments"] = std::move(moments);
    dos["bounds"] = {number_or_null(d.bounds.lower), number_or_null(d.bounds.upper)};
    dos["scaling"] = {{"center", number_or_null(d.scaling.center)},
                      {"half_width", number_or_null(d.scaling.half_width)}};
    dos["num_vectors"] = d.num_vectors;
    dos["num_products"] = d.num_products;
    dos["moments_seconds"] = number_or_null(d.moments_seconds);
    if (!config.dos.csv.empty()) dos["csv"] = config.dos.csv;
    report["dos"] = std::move(dos);
  }
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

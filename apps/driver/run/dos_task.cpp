#include "kelp/apps/driver/run/dos_task.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>

#include "kelp/apps/driver/run/task_common.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/solvers/kpm/kpm.hpp"

namespace kelp::solvers {

std::vector<double> dos_energy_grid(const DosConfig& d, const SpectralBounds& bounds) {
  // Default: the spectral bounds. Not the scaled interval (the bounds widened by the safety
  // margin): its ends are x = +-1, where 1 / sqrt(1 - x^2) turns rounding in x into a spike.
  // A single-point spectrum has no width: kpm_scaled_bounds gives it one.
  const SpectralBounds automatic = kpm_scaled_bounds(bounds);
  const double lo = d.energy_min.value_or(automatic.lower), hi = d.energy_max.value_or(automatic.upper);
  // Given ends were checked in the YAML (together, finite, a finite grid width); the bounds can
  // be near the overflow limit too (entries of 1e308).
  KELP_REQUIRE(std::isfinite((hi - lo) * std::max(1, d.num_energies - 1)), InvalidArgument,
               "kelp::solvers::dos_energy_grid: the grid from " << lo << " to " << hi << " in " << d.num_energies
                   << " points overflows a double; set dos.energy_min and dos.energy_max");
  std::vector<double> e(static_cast<std::size_t>(d.num_energies));
  for (int k = 0; k < d.num_energies; ++k) {
    e[k] = d.num_energies == 1 ? lo : lo + (hi - lo) * k / (d.num_energies - 1);
  }
  return e;
}

std::string dos_block_summary(const KpmParams& p, long long num_rows) {
  const long long width = kpm_block_width(p, num_rows);
  std::string s = "block " + std::to_string(width);
  if (width < p.block_size) s += " (block_size " + std::to_string(p.block_size) + " capped at the vectors)";
  return s;
}

void write_dos_csv(const std::string& path, const KpmDosResult& r) {
  std::ofstream file(path, std::ios::trunc);
  KELP_REQUIRE(file.good(), FileError, "kelp::solvers::run_dos_task: cannot write dos.csv '" << path << "'");
  file << "energy,density,density_error\n";
  char line[128];
  for (std::size_t k = 0; k < r.energies.size(); ++k) {
    std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g\n", r.energies[k], r.density[k],
                  r.density_error[k]);
    file << line;
  }
  KELP_REQUIRE(!file.fail(), FileError, "kelp::solvers::run_dos_task: writing '" << path << "' failed");
}

namespace {

using task::Clock;
using task::seconds_since;

template <class Scalar>
RunResult dos(const RunConfig& config, std::ostream& out) {
  RunResult result;
  auto start = Clock::now();
  Solution<Scalar> solution;
  {
    ProfilingRegion region("kelp::run::problem");
    solution.problem = build_problem<Scalar>(config.problem);
    result.problem_seconds = seconds_since(start);
  }
  const ConfigMatrix<Scalar>& H = solution.problem.A;
  result.problem = solution.problem.description;
  out << "problem: " << result.problem.matrix << "\n"
      << "  rows " << H.num_rows() << ", nnz " << H.nnz() << ", scalar "
      << to_string(result.problem.scalar) << "\n";
  const DosConfig& d = config.dos;
  const KpmParams& p = d.params;
  char summary[320];
  std::snprintf(summary, sizeof summary, "kpm {moments: %d, vectors: %lld, trace: %s, %s, %s, %s%s}",
                p.num_moments, kpm_trace_vectors(p, H.num_rows()), to_string(p.trace),
                to_string(p.implementation), dos_block_summary(p, H.num_rows()).c_str(), to_string(p.kernel),
                p.row_order == KpmRowOrder::locality ? ", rows: locality" : "");
  result.solver_summary = summary;
  out << "solver: " << result.solver_summary << "\n";

  start = Clock::now();
  {
    ProfilingRegion region("kelp::run::solve");
    // The grid may depend on the bounds: find them the way kpm_dos does, then hand them to it.
    const SpectralBounds bounds = p.bounds == KpmBoundsMethod::gershgorin
                                      ? gershgorin_bounds(H)
                                      : lanczos_bounds(H, p.lanczos_steps, p.seed ^ 0x5A5A5A5AULL);
    const auto energies = dos_energy_grid(d, bounds);
    result.dos.result = kpm_dos(H, p, energies, bounds);  // the bounds once: Lanczos is O(steps^2 n)
    result.solve_seconds = seconds_since(start);
  }
  const KpmDosResult& r = result.dos.result;
  result.exit_code = ExitCode::success;
  Repetition repetition;
  repetition.solve_seconds = result.solve_seconds;
  result.repetitions.push_back(repetition);
  char line[160];
  std::snprintf(line, sizeof line, "  bounds [%.6g, %.6g], scaling center %.6g half-width %.6g\n",
                r.bounds.lower, r.bounds.upper, r.scaling.center, r.scaling.half_width);
  out << "summary:\n" << line;
  std::snprintf(line, sizeof line, "  %lld products in %.3e s (moments), total %.3e s\n",
                r.num_products, r.moments_seconds, result.solve_seconds);
  out << line;
  const std::size_t step = std::max<std::size_t>(1, r.energies.size() / 10);
  for (std::size_t k = 0; k < r.energies.size(); k += step) {
    std::snprintf(line, sizeof line, "  E %12.5e  rho %12.5e  +- %.2e\n", r.energies[k],
                  r.density[k], r.density_error[k]);
    out << line;
  }
  if (!d.csv.empty()) {
    write_dos_csv(d.csv, r);
    out << "csv: " << d.csv << "\n";
  }
  result.solution = std::move(solution);
  return result;
}

}  // namespace

RunResult run_dos_task(const RunConfig& config, std::ostream& out) {
  return task::dispatch_double_scalar(config, "kelp::solvers::run_dos_task", "dos", [&](auto tag) {
    return dos<typename decltype(tag)::type>(config, out);
  });
}

}  // namespace kelp::solvers

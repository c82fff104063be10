#pragma once
/// The `solve` task of the run driver (an entry of task_table()).

#include <iosfwd>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

/// Builds the problem in the configuration's scalar, the solver (its preconditioner not set
/// up), runs setup_symbolic once and task.repeat times {setup_numeric, solve from x0}, each a
/// timed phase; checks the true residual, prints the summary, writes output.solution.
RunResult run_solve_task(const RunConfig& config, std::ostream& out);

}  // namespace kelp::solvers

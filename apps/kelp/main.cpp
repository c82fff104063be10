// kelp: runs a YAML configuration (problem + solver + output), see apps/driver/run/command_line.hpp.
//
//   kelp run configs/poisson3d_jacobi_cg.yaml --set problem.generator.nx=50
#include <Kokkos_Core.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "kelp/apps/driver/run/command_line.hpp"
#include "kelp/apps/driver/run/thread_binding.hpp"
#include "kelp/kernels/core/scope_guard.hpp"

int main(int argc, char* argv[]) {
  kelp::solvers::bind_threads_or_restart(argv);
  // Kokkos sees only the --kokkos-* arguments: it would also act on unprefixed ones such as
  // --help (printing its own help before kelp's) and leave them in argv.
  std::vector<char*> kokkos_argv = {argv[0]};
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).rfind("--kokkos-", 0) == 0) {
      kokkos_argv.push_back(argv[i]);
    } else {
      args.emplace_back(argv[i]);
    }
  }
  int kokkos_argc = static_cast<int>(kokkos_argv.size());
  kokkos_argv.push_back(nullptr);
  kelp::ScopeGuard kokkos(kokkos_argc, kokkos_argv.data());  // Kokkos removes what it understood
  // What Kokkos left is not one of its options: the command line reports it as unknown.
  for (int i = 1; i < kokkos_argc; ++i) args.emplace_back(kokkos_argv[i]);
  return kelp::solvers::run_command_line(args, std::cout, std::cerr);
}

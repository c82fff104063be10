// kelp: runs a YAML configuration (problem + solver + output), see apps/driver/run/command_line.hpp.
//
//   kelp run configs/poisson3d_jacobi_cg.yaml --set problem.generator.nx=50
#include <Kokkos_Core.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "kelp/apps/driver/run/command_line.hpp"

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);  // removes --kokkos-* arguments from argv
  const std::vector<std::string> args(argv + 1, argv + argc);
  return kelp::solvers::run_command_line(args, std::cout, std::cerr);
}

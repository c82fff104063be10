// Kokkos ownership (scope_guard.hpp). Compiled into libkelp so that one flag is shared by every
// translation unit and shared object that uses Kelp.
#include "kelp/kernels/core/scope_guard.hpp"

#include <Kokkos_Core.hpp>

namespace kelp {
namespace {
bool kelp_started_kokkos = false;  // set only by the initialize call that started Kokkos
}  // namespace

bool initialize(int& argc, char* argv[]) {
  if (Kokkos::is_initialized()) return false;  // the host code (or an outer guard) owns it
  Kokkos::initialize(argc, argv);
  kelp_started_kokkos = true;
  return true;
}

bool initialize() {
  if (Kokkos::is_initialized()) return false;
  Kokkos::initialize();
  kelp_started_kokkos = true;
  return true;
}

bool finalize() {
  if (!kelp_started_kokkos) return false;
  kelp_started_kokkos = false;
  // The host code may have finalised it already (then there is nothing left to stop).
  if (!Kokkos::is_initialized()) return false;
  Kokkos::finalize();
  return true;
}

bool owns_kokkos() { return kelp_started_kokkos && Kokkos::is_initialized(); }

ScopeGuard::ScopeGuard(int& argc, char* argv[]) : owns_(kelp::initialize(argc, argv)) {}
ScopeGuard::ScopeGuard() : owns_(kelp::initialize()) {}
ScopeGuard::~ScopeGuard() {
  if (owns_) kelp::finalize();
}

}  // namespace kelp

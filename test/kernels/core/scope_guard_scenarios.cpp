// Kokkos ownership scenarios, one per process (Kokkos cannot be started twice in one process):
//   scope_guard_scenarios host-owns   host initialises Kokkos, a Kelp guard comes and goes, the
//                                     host keeps using Kokkos and finalises it
//   scope_guard_scenarios kelp-owns   a Kelp guard initialises Kokkos and finalises it
//   scope_guard_scenarios nested      an inner guard inside an outer one owns nothing
//   scope_guard_scenarios functions   kelp::initialize / kelp::finalize, as a C-style host would
// Exit status 0 when every check holds; each failed check prints a line and sets status 1.
// Not a GoogleTest program: the test main owns Kokkos, which is exactly what is under test.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>

#include "kelp/kernels/core/scope_guard.hpp"

namespace {

int failures = 0;

void check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "scope_guard_scenarios: FAILED: %s\n", what);
    ++failures;
  }
}

struct AddIndex {
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& sum) const { sum += i; }
};

/// Whether Kokkos runs a kernel on the default execution space (the device on a GPU build).
bool kokkos_works() {
  int sum = 0;
  Kokkos::parallel_reduce("scope_guard_scenarios", Kokkos::RangePolicy<>(0, 100), AddIndex{}, sum);
  return sum == 4950;
}

void host_owns(int& argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    kelp::ScopeGuard guard(argc, argv);
    check(!guard.owns_kokkos(), "host-owns: the guard claims a Kokkos the host started");
    check(kokkos_works(), "host-owns: Kokkos does not run inside the guard");
  }
  check(Kokkos::is_initialized(), "host-owns: the guard finalised the host's Kokkos");
  check(Kokkos::is_initialized() && kokkos_works(),
        "host-owns: the host cannot use Kokkos after the guard");
  check(!kelp::finalize(), "host-owns: kelp::finalize stopped the host's Kokkos");
  check(Kokkos::is_initialized(), "host-owns: Kokkos stopped after kelp::finalize");
  if (Kokkos::is_initialized()) Kokkos::finalize();
}

void kelp_owns(int& argc, char* argv[]) {
  check(!Kokkos::is_initialized(), "kelp-owns: Kokkos running before the guard");
  {
    kelp::ScopeGuard guard(argc, argv);
    check(Kokkos::is_initialized(), "kelp-owns: the guard did not initialise Kokkos");
    check(guard.owns_kokkos() && kelp::owns_kokkos(), "kelp-owns: the guard does not own Kokkos");
    check(kokkos_works(), "kelp-owns: Kokkos does not run inside the guard");
  }
  check(!Kokkos::is_initialized(), "kelp-owns: the guard left Kokkos running");
  check(!kelp::owns_kokkos(), "kelp-owns: Kelp still claims Kokkos after the guard");
}

void nested(int& argc, char* argv[]) {
  {
    kelp::ScopeGuard outer(argc, argv);
    {
      kelp::ScopeGuard inner;
      check(!inner.owns_kokkos(), "nested: the inner guard claims Kokkos");
    }
    check(Kokkos::is_initialized() && kokkos_works(), "nested: the inner guard stopped Kokkos");
    check(outer.owns_kokkos(), "nested: the outer guard does not own Kokkos");
  }
  check(!Kokkos::is_initialized(), "nested: the outer guard left Kokkos running");
}

void functions(int& argc, char* argv[]) {
  check(kelp::initialize(argc, argv), "functions: kelp::initialize did not start Kokkos");
  check(!kelp::initialize(), "functions: a second kelp::initialize claims to start Kokkos");
  check(kokkos_works(), "functions: Kokkos does not run");
  check(kelp::finalize(), "functions: kelp::finalize did not stop the Kokkos it started");
  check(!Kokkos::is_initialized(), "functions: Kokkos still running");
  check(!kelp::finalize(), "functions: a second kelp::finalize claims to stop Kokkos");
}

}  // namespace

int main(int argc, char* argv[]) {
  const std::string scenario = argc > 1 ? argv[1] : "";
  if (scenario == "host-owns") {
    host_owns(argc, argv);
  } else if (scenario == "kelp-owns") {
    kelp_owns(argc, argv);
  } else if (scenario == "nested") {
    nested(argc, argv);
  } else if (scenario == "functions") {
    functions(argc, argv);
  } else {
    std::fprintf(stderr, "usage: %s host-owns|kelp-owns|nested|functions\n", argv[0]);
    return 2;
  }
  if (failures == 0) std::printf("scope_guard_scenarios %s: ok\n", scenario.c_str());
  return failures == 0 ? 0 : 1;
}

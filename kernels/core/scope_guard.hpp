#pragma once
/// Kokkos ownership for codes that embed Kelp: Kelp starts Kokkos only when nobody has, and
/// stops it only when it was the one that started it.
///
/// A PDE code that already runs Kokkos keeps it: kelp::initialize and kelp::ScopeGuard see that
/// Kokkos is up and leave it alone, and their finalize does nothing. A stand-alone program (the
/// kelp app, the benchmarks, a small driver) gets Kokkos started and stopped for it.
///
///   int main(int argc, char* argv[]) {
///     kelp::ScopeGuard guard(argc, argv);  // Kokkos::initialize unless the host code did
///     ...                                   // Kelp (and Kokkos) calls
///   }                                       // Kokkos::finalize only if the guard started it
///
/// Not thread-safe: call from the main thread, as Kokkos::initialize itself requires.

namespace kelp {

/// Initialises Kokkos with the command line (Kokkos removes the --kokkos-* arguments it
/// understood from argc/argv) unless Kokkos is already initialised. Returns true when this call
/// started Kokkos (Kelp then owns it and kelp::finalize will stop it), false when it was running.
bool initialize(int& argc, char* argv[]);
/// As above, with Kokkos' default settings.
bool initialize();

/// Finalises Kokkos if, and only if, kelp::initialize started it and it is still running;
/// returns whether it did. A Kokkos that the host code started is never finalised here.
bool finalize();

/// Whether Kokkos is running because kelp::initialize started it.
bool owns_kokkos();

/// RAII form of initialize/finalize: the constructor calls kelp::initialize, the destructor
/// kelp::finalize when this guard started Kokkos. Guards nest: only the outermost one that found
/// Kokkos stopped owns it. Not copyable or movable.
class ScopeGuard {
 public:
  ScopeGuard(int& argc, char* argv[]);
  ScopeGuard();
  ~ScopeGuard();
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  ScopeGuard(ScopeGuard&&) = delete;
  ScopeGuard& operator=(ScopeGuard&&) = delete;

  /// Whether this guard started Kokkos (and will finalise it).
  bool owns_kokkos() const { return owns_; }

 private:
  bool owns_;
};

}  // namespace kelp

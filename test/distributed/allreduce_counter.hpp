#pragma once
// Counts MPI_Allreduce calls in the test executable: allreduce_counter_test.cpp defines
// MPI_Allreduce itself (the MPI profiling interface), counts and forwards to PMPI_Allreduce.
// Calls from the header-only reduction policies resolve to that definition.

namespace kelp::test {
/// MPI_Allreduce calls made by this process so far.
long allreduce_calls();
}  // namespace kelp::test

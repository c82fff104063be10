// The MPI_Allreduce wrapper behind test::allreduce_calls() (see allreduce_counter.hpp), and a
// check that it counts.
#include <gtest/gtest.h>
#include <mpi.h>

#include "test/distributed/allreduce_counter.hpp"

namespace {
long allreduce_call_count = 0;
}  // namespace

extern "C" int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  ++allreduce_call_count;
  return PMPI_Allreduce(send, receive, count, type, op, comm);
}

namespace kelp::test {
long allreduce_calls() { return allreduce_call_count; }
}  // namespace kelp::test

namespace kelp::allreduce_counter_test {
namespace {

TEST(AllreduceCounter, CountsEveryCall) {
  const long before = test::allreduce_calls();
  int value = 1, sum = 0;

  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(sum, size);
  EXPECT_EQ(test::allreduce_calls() - before, 1);
}

}  // namespace
}  // namespace kelp::allreduce_counter_test

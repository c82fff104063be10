// A downstream code's own header at a path that Kelp also uses (solvers/cg/cg.hpp). The
// downstream build puts this folder on its include path: if Kelp's headers were found by their
// bare area paths, this file would be picked up instead, and the build fails here.
#error "test/downstream: the consumer's own solvers/cg/cg.hpp shadowed Kelp's header"

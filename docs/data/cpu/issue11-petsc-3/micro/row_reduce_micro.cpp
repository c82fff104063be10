#include <Kokkos_Core.hpp>
#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/solvers/bicgstab/impl/bicgstab_kernels.hpp"
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
using namespace kelp;
using V = Kokkos::View<double*, Kokkos::LayoutLeft>;
using CV = Kokkos::View<const double*, Kokkos::LayoutLeft>;
template<class F> double timeit(F f){ std::vector<double> t; for(int r=0;r<200;++r){auto a=std::chrono::steady_clock::now(); f(); auto b=std::chrono::steady_clock::now(); t.push_back(std::chrono::duration<double>(b-a).count());} std::sort(t.begin(),t.end()); return t[0]*1e6; }
template <class F, int Mode>
struct Blk { using value_type = typename F::value_type; F f; size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(size_t item, value_type& sum) const {
    const size_t begin=item*256, end = n-begin<256? n: begin+256;
    if (Mode==1) { for (size_t i=begin;i<end;++i) f(i,sum); }
    else if (Mode==2) { value_type s0,s1; f.init(s0); f.init(s1); size_t i=begin; for(;i+2<=end;i+=2){f(i,s0);f(i+1,s1);} for(;i<end;++i) f(i,s0); f.join(s0,s1); f.join(sum,s0);}
    else if (Mode==4) { value_type s0,s1,s2,s3; f.init(s0); f.init(s1); f.init(s2); f.init(s3); size_t i=begin; for(;i+4<=end;i+=4){f(i,s0);f(i+1,s1);f(i+2,s2);f(i+3,s3);} for(;i<end;++i) f(i,s0); f.join(s0,s1); f.join(s2,s3); f.join(s0,s2); f.join(sum,s0);}
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { f.init(s);} KOKKOS_INLINE_FUNCTION void join(volatile value_type& d, const volatile value_type& s) const { f.join(d,s);} };
template<int Mode, class F, class R> double run(F f, size_t n, R& r){ return timeit([&]{ Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::OpenMP, Kokkos::IndexType<size_t>>(0,(n+255)/256), Blk<F,Mode>{f,n}, r); Kokkos::fence();}); }
int main(int argc,char**argv){ Kokkos::initialize(argc,argv); { size_t n=262144; V x("x",n), y("y",n), a("a",n), b("b",n), c("c",n), d("d",n), e("e",n), g("g",n);
 Kokkos::deep_copy(x,1.5); Kokkos::deep_copy(y,0.5); Kokkos::deep_copy(a,0.25);Kokkos::deep_copy(b,0.3);Kokkos::deep_copy(c,0.2);Kokkos::deep_copy(d,0.1);
 double r=0; kernels::impl::ScalarPair<double> p{0,0};
 using D = kernels::impl::Dot<CV,CV>; using FD = kernels::impl::FusedDots<CV,CV,CV,CV>;
 using FS = solvers::impl::BicgstabFullStep<V,CV>; using HS = solvers::impl::BicgstabHalfStep<V,CV>;
 for (int rep=0; rep<2; ++rep){
 for (int m: {1,2,4}) {
  double t1 = m==1? run<1>(D{x,y},n,r): m==2? run<2>(D{x,y},n,r): run<4>(D{x,y},n,r);
  double t2 = m==1? run<1>(FD{x,y,x,x},n,p): m==2? run<2>(FD{x,y,x,x},n,p): run<4>(FD{x,y,x,x},n,p);
  FS fs{0.5,0.25,a,b,c,d,x,e,g};
  double t3 = m==1? run<1>(fs,n,p): m==2? run<2>(fs,n,p): run<4>(fs,n,p);
  HS hs{0.5,a,b,x,e,g,true};
  double t4 = m==1? run<1>(hs,n,r): m==2? run<2>(hs,n,r): run<4>(hs,n,r);
  printf("mode %d: dot %.1f  dots(t,s,t,t) %.1f  full %.1f  half %.1f us\n", m, t1,t2,t3,t4);
 }}
 } Kokkos::finalize(); }

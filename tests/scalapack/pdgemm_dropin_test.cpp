// MPI test of the drop-in p?gemm_ (linked before ScaLAPACK), every precision
// (s, d, c, z: one templated case; pdgemm most, the others a quarter as many
// each; complex values have nonzero imaginary parts and TRANS 'C' conjugates,
// checked against a reference that conjugates). On every P x Q grid
// of `size` ranks and of size - 1 ranks (one idle rank), BLACS grids mapped in
// a scrambled rank order, both broadcast policies, with and without groups and
// lookahead: random calls (transposes N/T/C, sizes 0..40, blocks 1..12,
// offsets, source processes, leading-dimension gaps, alpha/beta including 0,
// layouts equal to the engine's so the copies are skipped) are checked exactly
// against a serial reference (entries are multiples of 1/8, so every summation
// order gives the same bits): inside sub(C) the reference, everywhere else (the
// rest of C, the padding, all of A and B) the original bits. beta = 0 puts NaN
// in C. Every valid call must have run in hympi; with enabled=0 one call must
// go to ScaLAPACK's pdgemm (found through RTLD_NEXT) and be right too.
// A third of the other calls are aligned for the block-cyclic route (N N, A's rows
// distributed like C's rows and B's columns like C's columns, k free): under
// engine=direct/auto they must run there (hympi_pdgemm_direct_count), under
// engine=redistribute (3 more calls per grid) they must not. Misaligned and
// transposed calls run there too, with the unlike operand staged, and with
// HSUMMA groups (2x2, auto) the block-cyclic route's two-stage panels run.
// Usage: pdgemm_dropin_test [cases] [groups of the grouped variants: 2x2, auto or
// measured (groups=auto and block=auto by the measured model)].
// Exit 1 on any failure.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "hympi/blacs.h"
#include "hympi/pdgemm.h"
#include "mpi_check.hpp"

extern "C" int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);

namespace {

int failures = 0;

int numroc(int n, int nb, int proc, int src, int nprocs) {
  return numroc_(&n, &nb, &proc, &src, &nprocs);
}

using Complex = std::complex<float>;
using Complex16 = std::complex<double>;

// Per precision: the prefix, the Fortran entry (complex data as (re, im) pairs of Real).
template <class T, class RealType, char Code, auto Entry>
struct TypeOf {
  using Real = RealType;
  static constexpr char code = Code;
  static constexpr bool complex = !std::is_same_v<T, Real>;
  static constexpr auto call = Entry;
};
template <class T>
struct Type;
template <>
struct Type<float> : TypeOf<float, float, 's', psgemm_> {};
template <>
struct Type<double> : TypeOf<double, double, 'd', pdgemm_> {};
template <>
struct Type<Complex> : TypeOf<Complex, float, 'c', pcgemm_> {};
template <>
struct Type<Complex16> : TypeOf<Complex16, double, 'z', pzgemm_> {};

// Multiples of 1/8 in [-1, 1] (complex: both parts): products and sums of
// these are exact in every precision at these sizes.
double eighths(long x) {
  return static_cast<double>(x % 17 - 8) / 8;
}
template <class T>
T value(int which, long gi, long gj) {
  const double re = eighths(gi * 7 + gj * 13 + which * 5);
  if constexpr (Type<T>::complex)
    return T(static_cast<typename T::value_type>(re),
             static_cast<typename T::value_type>(eighths(gi * 11 + gj * 3 + which * 7 + 4)));
  else
    return static_cast<T>(re);
}

template <class T>
T conj_if(T x, bool conj) {
  if constexpr (Type<T>::complex) return conj ? std::conj(x) : x;
  return x;
}

template <class T>
bool same_bits(T x, T y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

template <class T>
T nan_of() {
  return T(std::numeric_limits<typename Type<T>::Real>::quiet_NaN());
}

// A scalar of the test's choices: real part from `re`, imaginary from `im` when complex.
template <class T>
T scalar(double re, double im) {
  if constexpr (Type<T>::complex)
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
  static_cast<void>(im);
  return static_cast<T>(re);
}

// One distributed matrix with a classic (type 1) descriptor.
template <class T>
struct Dist {
  int desc[9];
  int mb, nb, rsrc, csrc, lld, lrows, lcols;
  std::vector<T> local;
  // Global (0-based) of a local index.
  long grow(int li, int myrow, int P) const { return ((li / mb) * P + (myrow - rsrc + P) % P) * long(mb) + li % mb; }
  long gcol(int lj, int mycol, int Q) const { return ((lj / nb) * Q + (mycol - csrc + Q) % Q) * long(nb) + lj % nb; }
};

template <class T>
Dist<T> make(int ctxt, int M, int N, int mb, int nb, int rsrc, int csrc, int gap, int P, int Q, int myrow, int mycol) {
  Dist<T> d{};
  d.mb = mb, d.nb = nb, d.rsrc = rsrc, d.csrc = csrc;
  d.lrows = numroc(M, mb, myrow, rsrc, P);
  d.lcols = numroc(N, nb, mycol, csrc, Q);
  d.lld = std::max(1, d.lrows) + gap;
  int info = 0;
  descinit_(d.desc, &M, &N, &mb, &nb, &rsrc, &csrc, &ctxt, &d.lld, &info);
  if (info != 0) std::fprintf(stderr, "descinit info %d\n", info), ++failures;
  d.local.assign(static_cast<std::size_t>(d.lld) * std::max(1, d.lcols), T(12345));  // padding sentinel
  return d;
}

template <class T>
struct Case {
  char ta, tb;
  int m, n, k;
  T alpha, beta;
  int ia, ja, ib, jb, ic, jc;
  std::string text;
};

// Whether aligned calls must run in the block-cyclic route (engine=direct: yes; auto: yes
// unless alpha = 1 and beta = 0, when all three operands may already be in the
// engine's layout; engine=redistribute or enabled=0: no).
enum class Direct { yes, automatic, no };

// Runs one random call of precision T on the grid and checks this rank's part, and which library (and engine) ran
// it. staged: misaligned and transposed calls must run in the block-cyclic route too. conj: op(A) = A^H.
template <class T>
void run_case(std::mt19937& rng, int ctxt, int P, int Q, int myrow, int mycol, bool expect_hympi, Direct expect_direct,
              const std::string& where, bool staged = false, bool conj = false, int min_k = 0) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const char ops[3] = {'N', 'T', 'C'};
  const double alphas[5] = {1, -1.5, 0.5, 2, 0}, betas[4] = {0, 1, -0.5, 3};
  const double imags[4] = {0, 0.5, -1, 0.25};  // complex scalars' imaginary parts (0: real and 1 stay possible)
  Case<T> c;
  c.ta = ops[pick(0, 2)], c.tb = ops[pick(0, 2)];
  c.m = pick(0, 9) == 0 ? 0 : pick(1, 40), c.n = pick(0, 9) == 0 ? 0 : pick(1, 40),
  c.k = pick(0, 9) == 0 ? 0 : pick(1, 40);
  c.alpha = scalar<T>(alphas[pick(0, 4)], imags[pick(0, 3)]), c.beta = scalar<T>(betas[pick(0, 3)], imags[pick(0, 3)]);
  if (pick(0, 3) == 0) c.alpha = T(0);
  if (pick(0, 3) == 0) c.beta = T(0);
  const bool engine_layout = !conj && pick(0, 4) == 0;  // the caller's layout is the engine's: no copies
  if (engine_layout) c.ta = c.tb = 'N', c.alpha = T(1), c.beta = T(0);
  // Aligned for the block-cyclic route: A's rows lie like C's rows, B's columns like
  // C's columns (same blocks and sources, offsets shifted by whole grid cycles);
  // k stays free (A's column and B's row blocks random, unequal).
  const bool aligned = !engine_layout && !conj && pick(0, 2) == 0;
  if (aligned) c.ta = c.tb = 'N';
  if (conj) c.ta = 'C', c.m = std::max(c.m, 1), c.n = std::max(c.n, 1), c.k = std::max(c.k, 1), c.alpha = T(1);
  if (min_k > 0) c.m = std::max(c.m, 1), c.n = std::max(c.n, 1), c.k = min_k + pick(0, 9), c.alpha = T(1);
  const int ar = c.ta == 'N' ? c.m : c.k, ac = c.ta == 'N' ? c.k : c.m;
  const int br = c.tb == 'N' ? c.k : c.n, bc = c.tb == 'N' ? c.n : c.k;
  auto make_for = [&](int rows, int cols, int& i, int& j) {
    if (engine_layout) {
      i = j = 1;
      const int mb = std::max(1, (rows + P - 1) / P), nb = std::max(1, (cols + Q - 1) / Q);
      return make<T>(ctxt, rows, cols, mb, nb, 0, 0, 0, P, Q, myrow, mycol);
    }
    i = pick(1, 5), j = pick(1, 5);
    return make<T>(ctxt, i - 1 + rows + pick(0, 3), j - 1 + cols + pick(0, 3), pick(1, 12), pick(1, 12), pick(0, P - 1),
                   pick(0, Q - 1), pick(0, 3), P, Q, myrow, mycol);
  };
  Dist<T> A, B, C;
  if (aligned) {
    c.ic = pick(1, 5), c.jc = pick(1, 5);
    const int mb = pick(1, 12), nb = pick(1, 12), rsrc = pick(0, P - 1), csrc = pick(0, Q - 1);
    C = make<T>(ctxt, c.ic - 1 + c.m + pick(0, 3), c.jc - 1 + c.n + pick(0, 3), mb, nb, rsrc, csrc, pick(0, 3), P, Q,
                myrow, mycol);
    c.ia = c.ic + mb * P * pick(0, 1), c.ja = pick(1, 5);
    A = make<T>(ctxt, c.ia - 1 + c.m + pick(0, 3), c.ja - 1 + c.k + pick(0, 3), mb, pick(1, 12), rsrc, pick(0, Q - 1),
                pick(0, 3), P, Q, myrow, mycol);
    c.ib = pick(1, 5), c.jb = c.jc + nb * Q * pick(0, 1);
    B = make<T>(ctxt, c.ib - 1 + c.k + pick(0, 3), c.jb - 1 + c.n + pick(0, 3), pick(1, 12), nb, pick(0, P - 1), csrc,
                pick(0, 3), P, Q, myrow, mycol);
  } else {
    A = make_for(ar, ac, c.ia, c.ja), B = make_for(br, bc, c.ib, c.jb), C = make_for(c.m, c.n, c.ic, c.jc);
  }
  auto fill = [&](Dist<T>& d, int which, bool nan) {
    for (int lj = 0; lj < d.lcols; ++lj)
      for (int li = 0; li < d.lrows; ++li)
        d.local[static_cast<std::size_t>(lj) * d.lld + li] =
            nan ? nan_of<T>() : value<T>(which, d.grow(li, myrow, P), d.gcol(lj, mycol, Q));
  };
  fill(A, 0, false), fill(B, 1, false), fill(C, 2, c.beta == T(0));
  const std::vector<T> A0 = A.local, B0 = B.local, C0 = C.local;
  char text[400];
  const std::complex<double> alpha(c.alpha), beta(c.beta);
  std::snprintf(text, sizeof text,
                "%s: p%cgemm %c%c m=%d n=%d k=%d alpha=(%g,%g) beta=(%g,%g) A(%d,%d mb=%d nb=%d src=%d,%d) "
                "B(%d,%d mb=%d nb=%d src=%d,%d) C(%d,%d mb=%d nb=%d src=%d,%d)%s%s",
                where.c_str(), Type<T>::code, c.ta, c.tb, c.m, c.n, c.k, alpha.real(), alpha.imag(), beta.real(),
                beta.imag(), c.ia, c.ja, A.mb, A.nb, A.rsrc, A.csrc, c.ib, c.jb, B.mb, B.nb, B.rsrc, B.csrc, c.ic, c.jc,
                C.mb, C.nb, C.rsrc, C.csrc, engine_layout ? " engine layout" : "", aligned ? " aligned" : "");
  long long before = 0, after = 0, direct_before = 0, direct_after = 0;
  hympi_pgemm_counts(Type<T>::code, &before, nullptr, nullptr, &direct_before);
  // The Fortran entries take complex data as (re, im) pairs of the real type.
  using Real = typename Type<T>::Real;
  const auto r = [](const T* p) { return reinterpret_cast<const Real*>(p); };
  Type<T>::call(&c.ta, &c.tb, &c.m, &c.n, &c.k, r(&c.alpha), r(A.local.data()), &c.ia, &c.ja, A.desc, r(B.local.data()),
                &c.ib, &c.jb, B.desc, r(&c.beta), reinterpret_cast<Real*>(C.local.data()), &c.ic, &c.jc, C.desc);
  hympi_pgemm_counts(Type<T>::code, &after, nullptr, nullptr, &direct_after);
  int bad = 0;
  if ((after - before == 1) != expect_hympi) ++bad, std::fprintf(stderr, "FAIL %s: ran in the wrong library\n", text);
  // Aligned calls with something to multiply run in the block-cyclic route unless it is off.
  const bool multiply = c.m > 0 && c.n > 0 && c.k > 0 && c.alpha != T(0);
  const long long direct = direct_after - direct_before;
  // Only doubles have the checkerboard engine: the others always run on the caller's layout.
  const bool may_be_in_place =
      expect_direct == Direct::automatic && c.alpha == T(1) && c.beta == T(0) && Type<T>::code == 'd';
  if (expect_direct != Direct::no && (aligned || staged) && multiply && !may_be_in_place && direct != 1)
    ++bad, std::fprintf(stderr, "FAIL %s: %s, but not run by the block-cyclic route\n", text,
                        aligned ? "aligned" : "staged");
  if (expect_direct == Direct::no && direct != 0 && (Type<T>::code == 'd' || !expect_hympi))
    ++bad, std::fprintf(stderr, "FAIL %s: run by the block-cyclic route with engine=redistribute\n", text);
  if (A.local != A0 || B.local != B0) ++bad, std::fprintf(stderr, "FAIL %s: A or B was written\n", text);
  auto opA = [&](int i, int p) {
    return c.ta == 'N' ? value<T>(0, c.ia - 1 + i, c.ja - 1 + p)
                       : conj_if(value<T>(0, c.ia - 1 + p, c.ja - 1 + i), c.ta == 'C');
  };
  auto opB = [&](int p, int j) {
    return c.tb == 'N' ? value<T>(1, c.ib - 1 + p, c.jb - 1 + j)
                       : conj_if(value<T>(1, c.ib - 1 + j, c.jb - 1 + p), c.tb == 'C');
  };
  for (int lj = 0; lj < std::max(1, C.lcols) && !bad; ++lj)
    for (int li = 0; li < C.lld && !bad; ++li) {
      const std::size_t at = static_cast<std::size_t>(lj) * C.lld + li;
      const bool stored = li < C.lrows && lj < C.lcols;
      const long gi = stored ? C.grow(li, myrow, P) - (c.ic - 1) : -1,
                 gj = stored ? C.gcol(lj, mycol, Q) - (c.jc - 1) : -1;
      if (!stored || gi < 0 || gi >= c.m || gj < 0 || gj >= c.n) {
        if (!same_bits(C.local[at], C0[at])) ++bad, std::fprintf(stderr, "FAIL %s: C outside sub(C) changed\n", text);
        continue;
      }
      T ab(0);
      for (int p = 0; p < c.k; ++p) ab += opA(static_cast<int>(gi), p) * opB(p, static_cast<int>(gj));
      const T want = c.beta == T(0) ? c.alpha * ab : c.alpha * ab + c.beta * value<T>(2, gi + c.ic - 1, gj + c.jc - 1);
      if (C.local[at] != want) {
        const std::complex<double> got(C.local[at]), w(want);
        ++bad, std::fprintf(stderr, "FAIL %s: C(%ld,%ld) = (%g,%g), want (%g,%g)\n", text, gi, gj, got.real(),
                            got.imag(), w.real(), w.imag());
      }
    }
  failures += bad;
}

// A 1 x size BLACS grid of all ranks in order; this rank's place in it.
int one_row_grid(int size, int& myrow, int& mycol) {
  int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
  std::vector<int> map(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) map[static_cast<std::size_t>(r)] = r;
  Cblacs_gridmap(&ctxt, map.data(), 1, 1, size);
  int nprow = 0, npcol = 0;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  return ctxt;
}

// block=auto measures the GEMM rate of each precision (k wide enough for two
// candidate blocks) and keeps it in the tuning file under that precision's key.
template <class T>
void wide_k_call(int ctxt, int P, int Q, int myrow, int mycol) {
  std::mt19937 rng(99);
  run_case<T>(rng, ctxt, P, Q, myrow, mycol, true, Direct::automatic, "wide k", true, false, 130);
}

void check_rates_per_precision() {
  const char* path = std::getenv("HYMPI_TUNING_FILE");
  if (!path) return;
  std::FILE* f = std::fopen(path, "r");
  std::string text;
  if (f) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
  }
  for (const char* code : {"s", "d", "c", "z"})
    if (text.find(std::string("measured.rates.") + code + ".") == std::string::npos)
      std::fprintf(stderr, "FAIL: no GEMM rates of precision %s in the tuning file %s\n", code, path), ++failures;
  // Every rates entry names its precision (the file outlives runs: an old entry proves nothing alone).
  for (std::size_t at = text.find("measured.rates."); at != std::string::npos;
       at = text.find("measured.rates.", at + 1))
    if (!std::strchr("sdcz", text[at + 15]) || text[at + 16] != '.')
      std::fprintf(stderr, "FAIL: a GEMM rates entry without its precision in %s\n", path), ++failures;
}

void set(const char* key, const char* value) {
  if (hympi_pdgemm_set(key, value) != 0) std::fprintf(stderr, "FAIL set %s\n", hympi_pdgemm_last_error()), ++failures;
}

// hympi_pdgemm_set_info: MPI_INFO_NULL is a no-op; unknown keys are ignored; a bad
// value refuses the whole info, naming key and value, and applies none of it
// (checked by the caller: enabled=0, a good key before the bad one, must not stick).
void check_set_info() {
  if (hympi_pdgemm_set_info(MPI_INFO_NULL) != 0 || *hympi_pdgemm_last_error())
    std::fprintf(stderr, "FAIL: set_info(MPI_INFO_NULL) did not return 0\n"), ++failures;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_such_key", "whatever");
  if (hympi_pdgemm_set_info(info) != 0)
    std::fprintf(stderr, "FAIL: set_info refused an unknown key: %s\n", hympi_pdgemm_last_error()), ++failures;
  MPI_Info_set(info, "enabled", "0");  // good, and read before "sync"
  MPI_Info_set(info, "sync", "bogus");
  const char* error = hympi_pdgemm_set_info(info) == -1 ? hympi_pdgemm_last_error() : "";
  if (!std::strstr(error, "sync") || !std::strstr(error, "bogus"))
    std::fprintf(stderr, "FAIL: set_info with sync=bogus: want -1 naming key and value, got '%s'\n", error), ++failures;
  MPI_Info_free(&info);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = hympi::test::world_rank(), size = hympi::test::world_size();
  const int cases = argc > 1 ? std::atoi(argv[1]) : 12;
  const char* grouped = argc > 2 ? argv[2] : "2x2";  // groups of variants 2 and 3 ("auto": the model's)
  // "measured": groups=auto (variants 2, 3) and block=auto (all) under model=measured.
  const bool measured = std::strcmp(grouped, "measured") == 0;
  if (measured) set("model", "measured");
  // A bad setting is refused with a message naming it.
  if (hympi_pdgemm_set("groups", "2by2") == 0 || !std::strstr(hympi_pdgemm_last_error(), "groups"))
    std::fprintf(stderr, "FAIL: a bad groups value was accepted\n"), ++failures;
  if (hympi_pdgemm_set("model", "fastest") == 0 || !std::strstr(hympi_pdgemm_last_error(), "broadcast model"))
    std::fprintf(stderr, "FAIL: a bad model value was accepted\n"), ++failures;
  if (hympi_pdgemm_set("engine", "fast") == 0 || !std::strstr(hympi_pdgemm_last_error(), "engine"))
    std::fprintf(stderr, "FAIL: a bad engine value was accepted\n"), ++failures;
  int grids = 0;
  for (int used : {size, size - 1}) {
    if (used < 1 || (used == size - 1 && size > 4)) continue;
    for (int P = 1; P <= used; ++P) {
      if (used % P) continue;
      const int Q = used / P;
      // Scrambled map: grid (i, j) is world rank used - 1 - (i * Q + j).
      std::vector<int> map(static_cast<std::size_t>(used));
      for (int i = 0; i < P; ++i)
        for (int j = 0; j < Q; ++j) map[static_cast<std::size_t>(j * P + i)] = used - 1 - (i * Q + j);
      int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
      Cblacs_gridmap(&ctxt, map.data(), P, P, Q);
      ++grids;
      if (rank >= used) continue;  // idle rank: not in this grid
      int nprow, npcol, myrow, mycol;
      Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
      const char* policies[2] = {"pure", "hybrid"};
      for (int v = 0; v < 4; ++v) {
        set("policy", policies[v % 2]);
        set("groups", v >= 2 ? (measured ? "auto" : grouped) : "1x1");
        set("lookahead", v == 1 || v == 2 ? "1" : "0");
        set("block", measured ? "auto" : v >= 2 ? "2" : "3");
        set("outer", v >= 2 && !measured ? "4" : "0");
        // The block-cyclic route under both policies; auto and direct agree off the engine's layout.
        set("engine", v == 0 || v == 3 ? "direct" : "auto");
        std::mt19937 rng(static_cast<unsigned>(1000 * grids + v));
        const std::string where = "grid " + std::to_string(P) + "x" + std::to_string(Q) + " of " +
                                  std::to_string(size) + " policy " + policies[v % 2] + " variant " + std::to_string(v);
        const Direct expect = v == 0 || v == 3 ? Direct::yes : Direct::automatic;
        // Transposed and misaligned calls run there too, staged (groups or not).
        for (int c = 0; c < cases; ++c) run_case<double>(rng, ctxt, P, Q, myrow, mycol, true, expect, where, true);
        // The other precisions, through the same engine; complex once with op(A) = A^H for sure.
        for (int c = 0; c < (cases + 3) / 4; ++c) {
          run_case<float>(rng, ctxt, P, Q, myrow, mycol, true, expect, where, true);
          run_case<Complex>(rng, ctxt, P, Q, myrow, mycol, true, expect, where, true, c == 0);
          run_case<Complex16>(rng, ctxt, P, Q, myrow, mycol, true, expect, where, true, c == 0);
        }
      }
      // engine=redistribute: aligned calls go through the engine's checkerboard instead.
      set("engine", "redistribute");
      std::mt19937 rng_redistribute(static_cast<unsigned>(77 + grids));
      for (int c = 0; c < 3; ++c)
        run_case<double>(rng_redistribute, ctxt, P, Q, myrow, mycol, true, Direct::no, "engine=redistribute");
      // (other precisions have no checkerboard engine: both operands staged for the block-cyclic route)
      run_case<Complex16>(rng_redistribute, ctxt, P, Q, myrow, mycol, true, Direct::no, "engine=redistribute");
      set("engine", "auto");
      if (grids == 1) {  // the refused info held enabled=0: hympi must still run the call
        check_set_info();
        std::mt19937 rng_info(5);
        run_case<double>(rng_info, ctxt, P, Q, myrow, mycol, true, Direct::automatic, "after a refused set_info");
      }
      // Off: ScaLAPACK's own pdgemm runs it (RTLD_NEXT from a linked library) and is right too.
      set("enabled", "0");
      std::mt19937 rng(7);
      run_case<double>(rng, ctxt, P, Q, myrow, mycol, false, Direct::no, "enabled=0");
      run_case<float>(rng, ctxt, P, Q, myrow, mycol, false, Direct::no, "enabled=0");
      run_case<Complex>(rng, ctxt, P, Q, myrow, mycol, false, Direct::no, "enabled=0", false, true);
      run_case<Complex16>(rng, ctxt, P, Q, myrow, mycol, false, Direct::no, "enabled=0", false, true);
      set("enabled", "1");
      Cblacs_gridexit(ctxt);
      if (hympi_pdgemm_cached_grids() != 0)
        std::fprintf(stderr, "FAIL: blacs_gridexit left %d cached grids\n", hympi_pdgemm_cached_grids()), ++failures;
    }
  }
  if (measured) {  // block=auto's GEMM rates, measured and kept per precision
    int myrow = 0, mycol = 0;
    const int ctxt = one_row_grid(size, myrow, mycol);
    wide_k_call<float>(ctxt, 1, size, myrow, mycol);
    wide_k_call<double>(ctxt, 1, size, myrow, mycol);
    wide_k_call<Complex>(ctxt, 1, size, myrow, mycol);
    wide_k_call<Complex16>(ctxt, 1, size, myrow, mycol);
    Cblacs_gridexit(ctxt);
    if (rank == 0) check_rates_per_precision();
  }
  {
    // A grid never ended by blacs_gridexit: blacs_exit frees what hympi holds for it.
    int myrow = 0, mycol = 0;
    const int ctxt = one_row_grid(size, myrow, mycol);
    std::mt19937 rng(11);
    run_case<double>(rng, ctxt, 1, size, myrow, mycol, true, Direct::automatic, "grid left to blacs_exit");
    if (hympi_pdgemm_cached_grids() != 1)
      std::fprintf(stderr, "FAIL: %d cached grids while one grid is live\n", hympi_pdgemm_cached_grids()), ++failures;
    Cblacs_exit(1);  // 1: MPI goes on
    if (hympi_pdgemm_cached_grids() != 0)
      std::fprintf(stderr, "FAIL: blacs_exit left %d cached grids\n", hympi_pdgemm_cached_grids()), ++failures;
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  long long handled = 0, passed = 0;
  hympi_pdgemm_counts(&handled, &passed, nullptr);
  if (rank == 0)
    std::printf(
        "pdgemm drop-in: %d ranks, %d grids, %lld calls run by hympi (%lld by the block-cyclic route) and %lld passed "
        "on "
        "(rank 0): %s\n",
        size, grids, handled, hympi_pdgemm_direct_count(), passed, total ? "FAILED" : "ok");
  MPI_Finalize();
  return total ? 1 : 0;
}

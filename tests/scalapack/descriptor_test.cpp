// Unit tests of the drop-in's descriptor arithmetic: ownership and local
// indices of a block-cyclic dimension with a first block of its own size
// (PBLAS's IMB/INB) against a plain enumeration, descriptor reading, and the
// argument checks that decide what is passed on to ScaLAPACK.
#include "descriptor.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace hympi::hsumma::scalapack {
namespace {

// Deals items to processes block by block and counts, the slow obvious way.
struct Enumerated {
  std::vector<int> owner;
  std::vector<std::int64_t> local;
  std::vector<std::int64_t> size;
};
Enumerated enumerate(const CyclicDim& d) {
  Enumerated e;
  e.size.assign(static_cast<std::size_t>(d.nprocs), 0);
  int proc = d.src;
  std::int64_t left = d.first;
  for (std::int64_t g = 0; g < d.n; ++g) {
    if (left == 0) proc = (proc + 1) % d.nprocs, left = d.block;
    e.owner.push_back(proc);
    e.local.push_back(e.size[static_cast<std::size_t>(proc)]++);
    --left;
  }
  return e;
}

TEST(CyclicDim, MatchesEnumeration) {
  for (int nprocs : {1, 2, 3, 5})
    for (std::int64_t n : {0, 1, 7, 30, 64})
      for (std::int64_t first : {1, 2, 5, 64})
        for (std::int64_t block : {1, 3, 8})
          for (int src = 0; src < nprocs; ++src) {
            const CyclicDim d{n, first, block, src, nprocs};
            const Enumerated e = enumerate(d);
            for (std::int64_t g = 0; g < n; ++g) {
              ASSERT_EQ(d.owner(g), e.owner[static_cast<std::size_t>(g)]) << n << " " << first << " " << block;
              ASSERT_EQ(d.local_index(g), e.local[static_cast<std::size_t>(g)]) << n << " " << first << " " << block;
            }
            for (int p = 0; p < nprocs; ++p)
              ASSERT_EQ(d.local_size(p), e.size[static_cast<std::size_t>(p)])
                  << "n=" << n << " first=" << first << " block=" << block << " src=" << src << " p=" << p;
          }
}

TEST(Axis, OffsetWindow) {
  const CyclicDim d{20, 3, 4, 1, 3};
  const Axis a = Axis::of(d, 5, 10);
  ASSERT_EQ(a.size(), 10);
  for (std::int64_t t = 0; t < 10; ++t) {
    EXPECT_EQ(a.owner(t), d.owner(5 + t));
    EXPECT_EQ(a.local(t), d.local_index(5 + t));
  }
}

// Axis keeps runs, not a map per item (issue 51: 12 bytes an item per rank held
// 6 MB a simulated rank at n = 65536): the same owners and locals as the item-by-item
// enumeration, compact() renumbering per owner, and no more runs than blocks.
TEST(Axis, RunsMatchEnumeration) {
  for (int nprocs : {1, 2, 3, 5})
    for (std::int64_t first : {1, 2, 5, 64})
      for (std::int64_t block : {1, 3, 8})
        for (std::int64_t offset : {0, 1, 4})
          for (int src = 0; src < nprocs; ++src)
            for (std::int64_t shorter : {80, 79, 3, 0}) {  // windows of 0, 1, most and all of the rest
              const CyclicDim d{80, first, block, src, nprocs};
              const Enumerated e = enumerate(d);
              const std::int64_t len = d.n - offset - shorter;
              if (len < 0) continue;
              const Axis a = Axis::of(d, offset, len), c = compact(a, nprocs);
              ASSERT_EQ(a.size(), len);
              ASSERT_EQ(c.size(), len);
              std::vector<std::int64_t> next(static_cast<std::size_t>(nprocs), 0), counts = next;
              for (std::int64_t t = 0; t < len; ++t) {
                const auto g = static_cast<std::size_t>(offset + t);
                ASSERT_EQ(a.owner(t), e.owner[g]) << first << " " << block << " " << offset << " " << t;
                ASSERT_EQ(a.local(t), e.local[g]) << first << " " << block << " " << offset << " " << t;
                ASSERT_EQ(c.owner(t), e.owner[g]);
                ASSERT_EQ(c.local(t), next[static_cast<std::size_t>(e.owner[g])]++);
                ++counts[static_cast<std::size_t>(e.owner[g])];
              }
              for (int p = 0; p < nprocs; ++p) EXPECT_EQ(a.count(p), counts[static_cast<std::size_t>(p)]);
              // Blocks touched by the window, plus the short first one.
              EXPECT_LE(static_cast<std::int64_t>(a.runs().size()), len / block + 2);
              EXPECT_TRUE(a == Axis::of(d, offset, len));
              if (len > 0 && offset + 1 + len <= d.n) {
                EXPECT_FALSE(a == Axis::of(d, offset + 1, len));
              }
              // Past the window: refused, not read out of bounds (run_at) nor looped on forever (Cursor).
              EXPECT_THROW(a.owner(len), std::out_of_range);
              Axis::Cursor cursor(a);
              EXPECT_THROW(cursor.at(len), std::out_of_range);
            }
  // Equal maps compare equal however they were built (runs are maximal): on one
  // process every block layout is the identity (same_layout in pdgemm_route.cpp).
  for (std::int64_t block : {1, 3, 8})
    EXPECT_TRUE(Axis::of({40, 2, block, 0, 1}, 0, 40) == Axis::of({40, 40, 40, 0, 1}, 0, 40));
}

// Every field a descriptor reading must get right, with the words of a failure.
void expect_read(const int* desc, const Descriptor& want) {
  const auto got = read_descriptor(desc);
  ASSERT_TRUE(got) << "type " << desc[0];
  EXPECT_EQ(got->ctxt, want.ctxt);
  EXPECT_EQ(got->m, want.m);
  EXPECT_EQ(got->n, want.n);
  EXPECT_EQ(got->imb, want.imb);
  EXPECT_EQ(got->inb, want.inb);
  EXPECT_EQ(got->mb, want.mb);
  EXPECT_EQ(got->nb, want.nb);
  EXPECT_EQ(got->rsrc, want.rsrc);
  EXPECT_EQ(got->csrc, want.csrc);
  EXPECT_EQ(got->lld, want.lld);
}

TEST(Descriptor, ReadsBothTypes) {
  // Type 1 has no first block of its own: IMB/INB are MB/NB.
  const int classic[9] = {1, 7, 100, 90, 8, 6, 1, 0, 55};
  expect_read(classic, Descriptor{7, 100, 90, 8, 6, 8, 6, 1, 0, 55});
  const int inb[11] = {2, 7, 100, 90, 3, 5, 8, 6, 1, 0, 55};
  expect_read(inb, Descriptor{7, 100, 90, 3, 5, 8, 6, 1, 0, 55});
  const int other[11] = {502, 7, 100, 90, 3, 5, 8, 6, 1, 0, 55};
  EXPECT_FALSE(read_descriptor(other));
}

TEST(CheckSubmatrix, RejectsWhatScaLapackRejects) {
  Descriptor d;
  d.m = 50, d.n = 40, d.imb = d.mb = 4, d.inb = d.nb = 4, d.lld = 26;
  EXPECT_EQ(check_submatrix({d, 1, 1, 50, 40}, 2, 2, 0), nullptr);
  EXPECT_STREQ(check_submatrix({d, 2, 1, 50, 40}, 2, 2, 0), "submatrix outside the matrix");
  EXPECT_STREQ(check_submatrix({d, 0, 1, 5, 5}, 2, 2, 0), "submatrix offset < 1");
  d.lld = 25;  // process row 0 of 2 holds 26 rows of 50 in blocks of 4
  EXPECT_STREQ(check_submatrix({d, 1, 1, 5, 5}, 2, 2, 0), "local leading dimension too small");
  d.lld = 26, d.rsrc = 2;
  EXPECT_STREQ(check_submatrix({d, 1, 1, 5, 5}, 2, 2, 0), "source process outside the grid");
  d.rsrc = 0, d.mb = 0;
  EXPECT_STREQ(check_submatrix({d, 1, 1, 5, 5}, 2, 2, 0), "block size < 1");
}

}  // namespace
}  // namespace hympi::hsumma::scalapack

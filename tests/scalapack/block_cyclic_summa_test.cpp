// Unit tests of the block-cyclic route's planning (no MPI): which submatrix layouts
// count as aligned, including first blocks of their own size (IMB/INB) that
// happen to line up, and the k chunks against the definition (every index
// covered once, in order, one owner pair per chunk, locally contiguous, capped).
#include "block_cyclic_summa.hpp"

#include <gtest/gtest.h>

namespace hympi::hsumma::scalapack {
namespace {

TEST(DirectAlign, SameDistributionAndWholeCycleShifts) {
  const CyclicDim c{50, 4, 4, 1, 3};
  EXPECT_TRUE(align(Axis::of(c, 2, 20), Axis::of(c, 2, 20), 3));
  // Shifted by one grid cycle (3 blocks of 4): same owners, locals + 4.
  const auto shifted = align(Axis::of(c, 14, 20), Axis::of(c, 2, 20), 3);
  ASSERT_TRUE(shifted);
  for (std::size_t p = 0; p < 3; ++p) {
    if (shifted->count[p] > 0) {
      EXPECT_EQ(shifted->x_first[p], shifted->c_first[p] + 4);
    }
  }
  // Shifted by one block: other owners.
  EXPECT_FALSE(align(Axis::of(c, 6, 20), Axis::of(c, 2, 20), 3));
  // Another block size, another source, another length: not aligned.
  EXPECT_FALSE(align(Axis::of({50, 2, 2, 1, 3}, 2, 20), Axis::of(c, 2, 20), 3));
  EXPECT_FALSE(align(Axis::of({50, 4, 4, 2, 3}, 2, 20), Axis::of(c, 2, 20), 3));
  EXPECT_FALSE(align(Axis::of(c, 2, 19), Axis::of(c, 2, 20), 3));
}

TEST(DirectAlign, FirstBlockThatLinesUp) {
  // A first block of 2 starting at 0 lines up with a first block of 4 entered at 2.
  const CyclicDim c{40, 4, 4, 0, 2}, x{38, 2, 4, 0, 2};
  EXPECT_TRUE(align(Axis::of(x, 0, 30), Axis::of(c, 2, 30), 2));
  EXPECT_FALSE(align(Axis::of(x, 0, 30), Axis::of(c, 0, 30), 2));
  // One process: any layout is aligned (locals are global indices).
  EXPECT_TRUE(align(Axis::of({40, 3, 5, 0, 1}, 7, 20), Axis::of({30, 1, 2, 0, 1}, 1, 20), 1));
}

TEST(DirectChunks, MatchDefinition) {
  for (std::int64_t cap : {1, 3, 256})
    for (int q : {1, 2, 3})
      for (int p : {1, 2})
        for (std::int64_t nb : {1, 2, 5})
          for (std::int64_t mb : {1, 3, 4}) {
            const Axis a = Axis::of({60, nb, nb, q - 1, q}, 3, 41), b = Axis::of({50, 2, mb, 0, p}, 1, 41);
            std::int64_t t = 0;
            for (const KChunk& ch : k_chunks(a, b, cap)) {
              ASSERT_GE(ch.width, 1);
              ASSERT_LE(ch.width, cap);
              for (std::int64_t u = 0; u < ch.width; ++u, ++t) {
                const std::int64_t i = t;
                ASSERT_EQ(a.owner(i), ch.a_col);
                ASSERT_EQ(b.owner(i), ch.b_row);
                ASSERT_EQ(a.local(i), ch.a_local + u);
                ASSERT_EQ(b.local(i), ch.b_local + u);
              }
              // Maximal: the next index breaks a run, unless the cap ended the chunk.
              if (t < 41 && ch.width < cap) {
                const std::int64_t i = t;
                EXPECT_TRUE(a.owner(i) != ch.a_col || b.owner(i) != ch.b_row || a.local(i) != ch.a_local + ch.width ||
                            b.local(i) != ch.b_local + ch.width);
              }
            }
            EXPECT_EQ(t, 41);
          }
  EXPECT_TRUE(k_chunks(Axis::of({5, 1, 1, 0, 1}, 0, 0), Axis::of({5, 1, 1, 0, 1}, 0, 0), 4).empty());
}

TEST(ChunkPlan, NeedsRowsAndColumnsAligned) {
  const CyclicDim rows{30, 3, 3, 0, 2}, cols{30, 4, 4, 1, 3}, k{30, 5, 5, 0, 3}, kr{30, 2, 2, 1, 2};
  const Axis cr = Axis::of(rows, 0, 20), cc = Axis::of(cols, 0, 20), ak = Axis::of(k, 0, 10), bk = Axis::of(kr, 0, 10);
  const auto plan = plan_chunks(cr, ak, bk, cc, cr, cc, 2, 3, 4);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->width, 2);                                                      // B's row blocks of 2 cut every chunk
  EXPECT_FALSE(plan_chunks(Axis::of(rows, 3, 20), ak, bk, cc, cr, cc, 2, 3, 4));  // A's rows moved by a block
  EXPECT_FALSE(plan_chunks(cr, ak, bk, Axis::of(cols, 4, 20), cr, cc, 2, 3, 4));  // B's columns moved by a block
  EXPECT_FALSE(plan_chunks(cr, ak, Axis::of(kr, 0, 9), cc, cr, cc, 2, 3, 4));     // k differs
}

}  // namespace
}  // namespace hympi::hsumma::scalapack

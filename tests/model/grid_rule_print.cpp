// Prints "ranks P Q" of hympi::most_square_grid for ranks = 1..N (argv[1]), for
// test_grid_rule.py to compare with the Python copy the harness and model use.
#include <cstdio>
#include <cstdlib>

#include "hympi/grid.hpp"

int main(int argc, char** argv) {
  const int last = argc > 1 ? std::atoi(argv[1]) : 1024;
  for (int ranks = 1; ranks <= last; ++ranks) {
    const auto [p, q] = hympi::most_square_grid(ranks);
    std::printf("%d %d %d\n", ranks, p, q);
  }
  return 0;
}

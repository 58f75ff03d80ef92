// The chapter-3 probes' positional arguments (hier_coll.cpp, split_cost.cpp): OP BYTES GROUPS REPS,
// GROUPS a comma list; what each probe accepts is checked by the probe (an entry that is not a
// number reads as 0 and is refused there).
#pragma once
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace hympi_probe {

struct ProbeArgs {
  std::string op;
  long long bytes = 0;
  std::vector<int> groups;
  int reps = 1;
};

inline ProbeArgs probe_args(int argc, char** argv) {
  ProbeArgs a;
  if (argc > 1) a.op = argv[1];
  if (argc > 2) a.bytes = std::atoll(argv[2]);
  if (argc > 3) {
    std::stringstream in(argv[3]);
    std::string item;
    while (std::getline(in, item, ',')) a.groups.push_back(std::atoi(item.c_str()));
  }
  if (argc > 4) a.reps = std::atoi(argv[4]);
  return a;
}

}  // namespace hympi_probe

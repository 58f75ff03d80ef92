// Two grids (or two jobs) adding model=measured entries to one tuning file at the
// same time: each writer reads, adds its entry and renames a new file into place,
// so without taking turns the last rename drops the others' entries. Several
// processes write distinct keys concurrently; every key must be there afterwards.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tuning_file.hpp"

namespace scalapack = hympi::hsumma::scalapack;

namespace {

constexpr int kWriters = 4;
constexpr int kKeysPerWriter = 30;

std::string key_of(int writer, int i) {
  return "race.w" + std::to_string(writer) + ".k" + std::to_string(i);
}

}  // namespace

TEST(TuningFile, ConcurrentWritersKeepEveryEntry) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hympi-tuning-race-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const std::string path = (dir / "tuning.txt").string();

  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0) << "fork failed";
    if (pid == 0) {
      int failures = 0;
      for (int i = 0; i < kKeysPerWriter; ++i)
        failures += !scalapack::write_measured(path, key_of(w, i), {double(w), double(i)}).empty();
      _exit(failures ? 1 : 0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed to write";
  }

  int missing = 0;
  for (int w = 0; w < kWriters; ++w)
    for (int i = 0; i < kKeysPerWriter; ++i) {
      const auto values = scalapack::read_measured(path, key_of(w, i));
      if (!values) {
        ++missing;
        continue;
      }
      EXPECT_EQ(*values, (std::vector<double>{double(w), double(i)})) << key_of(w, i);
    }
  EXPECT_EQ(missing, 0) << "entries lost between concurrent writers";
  fs::remove_all(dir);
}

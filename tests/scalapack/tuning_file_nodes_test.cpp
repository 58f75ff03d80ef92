// The tuning file is never written over anything but a regular file (issue 42,
// item 2). HYMPI_TUNING_FILE naming a character device (a private mknod copy of
// /dev/null, never the real one), a FIFO, a directory, a symbolic link to each
// of them or to nothing: reading and both writers refuse with a message saying
// what the path is, the node is left as it was (same inode, type and device
// number), and nothing is created beside it (no "<path>.lock", no temporary
// file). A FIFO is never opened (that would block: the ctest timeout catches it).
// A link to a regular file is written through: the link stays, its target gets
// the entry.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "hympi/hsumma/cost_model.hpp"
#include "tuning_file.hpp"

namespace scalapack = hympi::hsumma::scalapack;
namespace fs = std::filesystem;

namespace {

class TuningFileNodes : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hympi-tuning-nodes-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::set<std::string> listing() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
    return names;
  }

  // Every entry point refuses `path`, which stays as it was; nothing appears beside it.
  void expect_left_alone(const std::string& path, const std::string& what) {
    struct stat before {}, after {};
    ASSERT_EQ(::lstat(path.c_str(), &before), 0);
    const std::set<std::string> names = listing();

    testing::internal::CaptureStderr();
    EXPECT_FALSE(scalapack::read_tuning_file(path)) << path;
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("ignoring tuning file " + path), std::string::npos) << warning;
    EXPECT_NE(warning.find(what), std::string::npos) << warning;
    EXPECT_NE(warning.find("left alone"), std::string::npos) << warning;

    EXPECT_FALSE(scalapack::read_measured(path, "some.key"));
    hympi::hsumma::model::Machine mc;
    mc.alpha = 1e-6, mc.beta = 1e-9, mc.gamma = 1e9;
    const std::string write_error = scalapack::write_tuning_file(path, mc);
    EXPECT_NE(write_error.find(what), std::string::npos) << write_error;
    EXPECT_NE(write_error.find("left alone"), std::string::npos) << write_error;
    const std::string measured_error = scalapack::write_measured(path, "some.key", {1.0, 2.0});
    EXPECT_NE(measured_error.find(what), std::string::npos) << measured_error;

    ASSERT_EQ(::lstat(path.c_str(), &after), 0) << path << " is gone";
    EXPECT_EQ(after.st_ino, before.st_ino) << path << " was replaced";
    EXPECT_EQ(after.st_mode, before.st_mode);
    EXPECT_EQ(after.st_rdev, before.st_rdev);
    EXPECT_EQ(listing(), names) << "something was created beside " << path;
    EXPECT_FALSE(fs::exists(fs::symlink_status(path + ".lock")));
  }

  // The node at `path` (`what`: "a FIFO", ...) and a symbolic link to it, `link_name`
  // in the test's directory: both left alone.
  void expect_node_and_link_left_alone(const std::string& path, const std::string& what,
                                       const std::string& link_name) {
    expect_left_alone(path, what);
    const std::string link = (dir_ / link_name).string();
    fs::create_symlink(path, link);
    expect_left_alone(link, "a symbolic link to " + what);
  }

  fs::path dir_;
};

}  // namespace

TEST_F(TuningFileNodes, CharacterDeviceIsLeftAlone) {
  const std::string path = (dir_ / "null").string();
  if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod not permitted here";
  expect_node_and_link_left_alone(path, "a character device", "link-to-null");
}

TEST_F(TuningFileNodes, FifoIsLeftAloneAndNeverOpened) {
  const std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  expect_node_and_link_left_alone(path, "a FIFO", "link-to-fifo");
}

TEST_F(TuningFileNodes, DirectoryIsLeftAlone) {
  const std::string path = (dir_ / "a-directory").string();
  fs::create_directory(path);
  expect_node_and_link_left_alone(path, "a directory", "link-to-directory");
}

TEST_F(TuningFileNodes, DanglingLinkIsLeftAlone) {
  const std::string link = (dir_ / "dangling").string();
  fs::create_symlink(dir_ / "nowhere", link);
  expect_left_alone(link, "a symbolic link to nothing");
}

TEST_F(TuningFileNodes, LinkToRegularFileIsWrittenThrough) {
  const std::string file = (dir_ / "real.txt").string(), link = (dir_ / "link.txt").string();
  { std::ofstream(file) << ""; }
  fs::create_symlink(file, link);
  EXPECT_EQ(scalapack::write_measured(link, "some.key", {1.0, 2.0}), "");
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced";
  const auto values = scalapack::read_measured(file, "some.key");
  ASSERT_TRUE(values);
  EXPECT_EQ(*values, (std::vector<double>{1.0, 2.0}));
}

// The check-then-rename window: a FIFO put at the path after the last check
// (tuning_file_after_check, "replace") must survive the replacement.
TEST_F(TuningFileNodes, NodePutThereAfterTheCheckSurvives) {
  const std::string path = (dir_ / "tuning.txt").string();
  { std::ofstream(path) << ""; }
  static std::string swapped;
  swapped.clear();
  scalapack::tuning_file_after_check = [](const std::string& p, const char* moment) {
    if (std::string(moment) != "replace") return;
    fs::remove(p);
    if (::mkfifo(p.c_str(), 0644) == 0) swapped = p;
  };
  const std::string error = scalapack::write_measured(path, "some.key", {1.0});
  scalapack::tuning_file_after_check = nullptr;
  ASSERT_EQ(swapped, path) << "the hook did not run";
  struct stat st {};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0) << path << " is gone";
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO put at " << path << " was replaced";
  EXPECT_NE(error.find("a FIFO"), std::string::npos) << error;
  EXPECT_NE(error.find("left alone"), std::string::npos) << error;
  for (const auto& name : listing())  // no temporary file left behind
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;
}

// The check-then-open window: a FIFO put at the path after the check
// (tuning_file_after_check, "read") must not block the reader (the ctest
// TIMEOUT catches a hang), and is left there.
TEST_F(TuningFileNodes, FifoPutThereAfterTheCheckDoesNotBlockTheReader) {
  const std::string path = (dir_ / "tuning.txt").string();
  { std::ofstream(path) << "# hympi tuning file v1\nmeasured.some.key=1\n"; }
  scalapack::tuning_file_after_check = [](const std::string& p, const char* moment) {
    if (std::string(moment) != "read") return;
    fs::remove(p);
    ASSERT_EQ(::mkfifo(p.c_str(), 0644), 0);
  };
  EXPECT_FALSE(scalapack::read_measured(path, "some.key"));
  fs::remove(path);  // a regular file again, for the other reader
  { std::ofstream(path) << "# hympi tuning file v1\nalpha=1e-6\nbeta=1e-9\ngamma=1e9\n"; }
  testing::internal::CaptureStderr();
  EXPECT_FALSE(scalapack::read_tuning_file(path));
  const std::string warning = testing::internal::GetCapturedStderr();
  scalapack::tuning_file_after_check = nullptr;
  EXPECT_NE(warning.find("no longer a regular file"), std::string::npos) << warning;
  struct stat st {};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

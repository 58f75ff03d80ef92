#include "bpmf/durable_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bpmf/matrix_market.hpp"

namespace bpmf {

namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
  throw InputError("cannot " + what + " '" + path + "': " + std::strerror(error));
}

void write_all(int fd, const std::string& bytes, const std::string& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write", path, errno);
    done += static_cast<std::size_t>(n);
  }
}
}  // namespace

void write_file_durably(const std::string& path, const std::string& bytes) {
  const std::filesystem::path target(path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) fail("create", tmp, errno);
  try {
    write_all(fd, bytes, tmp);
    if (::fsync(fd) != 0) fail("sync", tmp, errno);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) fail("close", tmp, errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(tmp.c_str());
    fail("rename " + tmp + " to", path, error);
  }
  // The rename itself must reach the disk, or a crash may bring back the old name.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

int remove_leftover_temporaries(const std::string& path) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  const std::string prefix = target.filename().string() + ".tmp.";
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    if (name.find_first_not_of("0123456789", prefix.size()) != std::string::npos) continue;
    if (entry.is_regular_file(ec) && std::filesystem::remove(entry.path(), ec)) ++removed;
  }
  return removed;
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("open", path, errno);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) fail("read", path, errno);
  return bytes.str();
}

}  // namespace bpmf

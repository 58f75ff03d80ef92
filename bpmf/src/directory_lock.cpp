#include "bpmf/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "bpmf/matrix_market.hpp"

namespace bpmf {

namespace {
std::string holder_text(int fd) {
  char buf[256] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string text(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? "no holder recorded" : text;
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? name : "?";
}
}  // namespace

std::string lock_path(const std::string& dir) {
  return dir + "/chain.lock";
}

DirectoryLock::DirectoryLock(const std::string& dir, const std::string& chain) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot make the directory '" + dir + "': " + ec.message());
  const std::string path = lock_path(dir);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
  int rc;
  while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK) {
      const std::string holder = holder_text(fd);
      ::close(fd);
      throw InputError("'" + dir + "' is in use by another running chain (" + path + " is locked; " + holder +
                       "): wait for that run to end, or choose another directory");
    }
    if (error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS) {
      std::fprintf(stderr, "hympi-bpmf: warning: cannot lock '%s' (%s): another chain could write into '%s'\n",
                   path.c_str(), std::strerror(error), dir.c_str());
      ::close(fd);
      return;
    }
    ::close(fd);
    throw InputError("cannot lock '" + path + "': " + std::strerror(error));
  }
  fd_ = fd;
  dir_ = dir;
  describe(chain);
}

bool DirectoryLock::relock_if_removed(const std::string& chain) {
  if (fd_ < 0) return false;
  struct stat held {
  }, now{};
  if (::fstat(fd_, &held) == 0 && ::stat(lock_path(dir_).c_str(), &now) == 0 && held.st_dev == now.st_dev &&
      held.st_ino == now.st_ino)
    return false;
  try {
    *this = DirectoryLock(dir_, chain);
  } catch (const InputError& e) {
    throw InputError("'" + lock_path(dir_) + "' was removed while this chain ran, and another chain took the " +
                     "directory since (" + e.what() + "): this chain stops without writing into '" + dir_ + "'");
  }
  return true;
}

void DirectoryLock::describe(const std::string& chain) const {
  if (fd_ < 0) return;
  const std::string text = "chain " + chain + ", pid " + std::to_string(::getpid()) + " on " + host_name() + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, text.data(), text.size(), 0) < 0) {
    // Only the message of a refused chain would lack the holder: the lock is what counts.
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

DirectoryLock::DirectoryLock(DirectoryLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), dir_(std::move(other.dir_)) {}

DirectoryLock& DirectoryLock::operator=(DirectoryLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    dir_ = std::move(other.dir_);
  }
  return *this;
}

}  // namespace bpmf

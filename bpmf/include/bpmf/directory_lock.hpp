// A chain's hold on a directory it writes into (checkpoints, saved samples): an
// exclusive flock(2) on <dir>/chain.lock, kept for the whole run. The kernel drops
// a flock when its holder ends in any way - exit, crash, kill -9 - so a lock never
// outlives its process: a stale chain.lock is just a file nobody holds, and the
// next chain takes it. The file's text (chain id, host, pid of the holder) is only
// for the refusal message; the flock alone decides. The file is never removed
// (removing a lock file would let two chains lock two different files); if someone
// removes it anyway, relock_if_removed() - called before each write into the
// directory - locks the file now at that path, closing the door again.
#pragma once
#include <string>

namespace bpmf {

class DirectoryLock {
 public:
  DirectoryLock() = default;
  // Makes `dir` and locks it for `chain`. Throws InputError naming the directory
  // and its holder when another process holds it. A file system without flock
  // (ENOLCK, EOPNOTSUPP, ENOSYS) gets a warning on stderr and no lock.
  DirectoryLock(const std::string& dir, const std::string& chain);
  ~DirectoryLock();
  DirectoryLock(DirectoryLock&& other) noexcept;
  DirectoryLock& operator=(DirectoryLock&& other) noexcept;
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  bool held() const { return fd_ >= 0; }
  // Rewrites the holder's description in the file (a resume learns its chain id
  // from the checkpoint it reads under the lock).
  void describe(const std::string& chain) const;
  // When chain.lock was removed or replaced since it was locked (it no longer keeps
  // other chains out), locks the file now at its path and returns true. Throws
  // InputError when another process holds that file: another chain came in.
  bool relock_if_removed(const std::string& chain);

 private:
  int fd_ = -1;
  std::string dir_;
};

std::string lock_path(const std::string& dir);

}  // namespace bpmf

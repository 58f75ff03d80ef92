#include "tuning_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

namespace hympi::hsumma::scalapack {

void (*tuning_file_after_check)(const std::string& path, const char* moment) = nullptr;

namespace {

constexpr const char* kHeader = "# hympi tuning file v1";

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "unknown";
  return name;
}

// What a file system node is, for the message refusing it.
std::string kind_of(const struct stat& st) {
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

// Where the tuning file's bytes are: `path`, or the regular file its symbolic
// links lead to. Anything else (a device, FIFO, directory, socket, a link to
// one or to nothing) is never read, written, renamed over or given a lock file
// beside it: `refused` says what it is ("a FIFO, not a regular file"). A
// missing path is fine (created later).
struct Target {
  std::string path, refused;
};
Target target_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {path, ""};
  if (S_ISREG(st.st_mode)) return {path, ""};
  if (!S_ISLNK(st.st_mode)) return {path, kind_of(st) + ", not a regular file"};
  if (::stat(path.c_str(), &st) != 0) return {path, "a symbolic link to nothing"};
  if (!S_ISREG(st.st_mode)) return {path, "a symbolic link to " + kind_of(st) + ", not to a regular file"};
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return {path, "a symbolic link that cannot be resolved"};
  Target t{real, ""};
  std::free(real);
  return t;
}

// The text of the regular file `path` (after target_of accepted it), or
// nothing when it cannot be opened or is no longer a regular file: opened
// without blocking (a FIFO put there since the check must not hang the
// reader) and checked again on the open descriptor.
std::optional<std::string> regular_text(const std::string& path) {
  if (tuning_file_after_check) tuning_file_after_check(path, "read");
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    text.emplace();
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0) text->append(buffer, static_cast<std::size_t>(n));
    if (n < 0) text.reset();
  }
  ::close(fd);
  return text;
}

const std::string kMeasured = "measured.";
constexpr std::size_t kMaxMeasured = 256;  // entries kept

// The measured entries of a readable file with the right header (else none).
std::vector<std::string> measured_lines(const std::string& path) {
  std::vector<std::string> out;
  const Target target = target_of(path);
  if (!target.refused.empty()) return out;  // never opened: a FIFO would block
  const auto text = regular_text(target.path);
  if (!text) return out;
  std::istringstream in(*text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return out;
  while (std::getline(in, line))
    if (line.rfind(kMeasured, 0) == 0) out.push_back(line);
  return out;
}

// Puts the file `tmp` at `path` over a regular file or nothing, never over
// anything else, with no window between the check and the rename: the two are
// swapped atomically (renameat2 RENAME_EXCHANGE) and swapped back when what was
// at `path` is not a regular file (a node put there since target_of looked); a
// missing `path` is taken with RENAME_NOREPLACE. Where the file system has no
// such renames (EINVAL: NFS and some others) it falls back to checking and then
// renaming, a window of a few system calls. `tmp` is gone afterwards (unless a
// swap back fails: then the message names where the node is). "" or the problem.
std::string replace_regular(const std::string& tmp, const std::string& path) {
  const auto left_alone = [&](const std::string& refused) {
    ::unlink(tmp.c_str());
    return path + " is " + refused + ": left alone";
  };
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0) {
      struct stat old {};
      if (::lstat(tmp.c_str(), &old) != 0 || S_ISREG(old.st_mode)) {
        ::unlink(tmp.c_str());  // the old regular file (or nothing left of it)
        return "";
      }
      if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) != 0)
        return "cannot put back " + path + " (" + kind_of(old) + ", now at " + tmp + "): " + std::strerror(errno);
      return left_alone(kind_of(old) + ", not a regular file");
    }
    if (errno == ENOENT && ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0)
      return "";
    if (errno == EEXIST || errno == ENOENT) continue;  // appeared or vanished meanwhile: look again
    if (errno != EINVAL && errno != ENOSYS) break;
    if (const std::string refused = target_of(path).refused; !refused.empty()) return left_alone(refused);
    if (::rename(tmp.c_str(), path.c_str()) == 0) return "";
    break;
  }
  const std::string why = "cannot write " + path + ": " + std::strerror(errno);
  ::unlink(tmp.c_str());
  return why;
}

// Header, comment and body, through a temporary file and replace_regular (the
// directory exists: locked() made it). The temporary file is new (O_EXCL,
// O_NOFOLLOW): never written through a link or a node left at its name.
std::string write_atomically(const std::string& path, const std::string& body) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  ::unlink(tmp.c_str());  // a leftover of a killed process with this pid
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create " + tmp + ": " + std::strerror(errno);
  std::ostringstream text;
  text << kHeader << "\n# measured by hympi's drop-in pdgemm (groups=auto) on " << host_name()
       << "; delete the file to measure again\n"
       << body;
  const std::string bytes = text.str();
  std::size_t done = 0;
  int error = 0;
  while (done < bytes.size() && !error) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n > 0) done += static_cast<std::size_t>(n);
    else if (n == 0 || errno != EINTR) error = n == 0 ? EIO : errno;
  }
  if (::close(fd) != 0 && !error) error = errno;  // a full NFS or quota can report here only
  if (error) {
    ::unlink(tmp.c_str());
    return "cannot write " + tmp + ": " + std::strerror(error);
  }
  if (tuning_file_after_check) tuning_file_after_check(path, "replace");
  return replace_regular(tmp, path);
}

// Runs `update` (a read-modify-write of the file at `path`) under a POSIX record
// lock on "<path>.lock": two grids or two jobs sharing a cache directory then
// add their entries one after the other instead of the last rename dropping the
// other's. fcntl locks also hold on NFS (lockd); where no lock file can be made
// the update runs unlocked (the file stays whole; an entry lost is measured again).
// The directory is made first, for the lock file and the update alike. A path
// that is not a regular file is left alone (target_of), and `update` gets the
// path of the file itself (a symbolic link's target).
template <class Update>
std::string locked(const std::string& named, Update&& update) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const Target resolved = target_of(named);
  if (!resolved.refused.empty()) return named + " is " + resolved.refused + ": left alone";
  const std::string& path = resolved.path;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return "cannot create " + target.parent_path().string() + ": " + ec.message();
  const int fd = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    struct flock whole {};
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET;
    while (::fcntl(fd, F_SETLKW, &whole) == -1 && errno == EINTR) {
    }
  }
  std::string result = update(path);
  if (fd >= 0) ::close(fd);  // releases the lock
  return result;
}

// The machine's lines of the file.
void write_machine(std::ostringstream& body, const model::Machine& mc) {
  body.precision(9);
  body << "alpha=" << mc.alpha << "\nbeta=" << mc.beta << "\ngamma=" << mc.gamma << "\n";
}

bool plausible(double v, double lo, double hi) {
  return std::isfinite(v) && v >= lo && v <= hi;
}

}  // namespace

std::string tuning_file_path() {
  if (const char* p = std::getenv("HYMPI_TUNING_FILE"); p && *p) return p;
  const std::string file = "hympi/tuning-" + host_name() + ".txt";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/" + file;
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/" + file;
  return "";
}

std::optional<model::Machine> read_tuning_file(const std::string& path) {
  const auto corrupt = [&](const std::string& why) {
    std::fprintf(stderr, "hympi pdgemm: ignoring tuning file %s: %s (it will be measured again)\n", path.c_str(),
                 why.c_str());
    return std::nullopt;
  };
  const Target file = target_of(path);
  if (!file.refused.empty()) return corrupt("it is " + file.refused + "; left alone, nothing is saved there");
  struct stat st {};
  if (::stat(file.path.c_str(), &st) != 0) return std::nullopt;  // missing: silently
  const auto content = regular_text(file.path);
  if (!content) return corrupt("it cannot be read or is no longer a regular file; left alone");
  std::istringstream in(*content);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return corrupt("first line is not '" + std::string(kHeader) + "'");
  std::map<std::string, double> values;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind(kMeasured, 0) == 0) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) return corrupt("line '" + line + "' is not key=value");
    char* end = nullptr;
    const std::string text = line.substr(eq + 1);
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') return corrupt("value of '" + line.substr(0, eq) + "' is not a number");
    values[line.substr(0, eq)] = v;
  }
  if (values.empty()) return std::nullopt;  // measured entries only
  model::Machine mc;
  for (const auto& [key, target, lo, hi] :
       {std::tuple{"alpha", &mc.alpha, 1e-9, 1.0}, std::tuple{"beta", &mc.beta, 1e-13, 1e-3},
        std::tuple{"gamma", &mc.gamma, 1e6, 1e15}}) {
    const auto it = values.find(key);
    if (it == values.end()) return corrupt(std::string("no ") + key);
    if (!plausible(it->second, lo, hi)) return corrupt(std::string(key) + " out of range");
    *target = it->second;
  }
  return mc;
}

std::string write_tuning_file(const std::string& named, const model::Machine& mc) {
  return locked(named, [&](const std::string& path) {
    std::ostringstream body;
    write_machine(body, mc);
    for (const std::string& line : measured_lines(path)) body << line << "\n";
    return write_atomically(path, body.str());
  });
}

std::optional<std::vector<double>> read_measured(const std::string& path, const std::string& key) {
  const std::string prefix = kMeasured + key + "=";
  for (const std::string& line : measured_lines(path)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::vector<double> values;
    std::istringstream in(line.substr(prefix.size()));
    std::string item;
    while (std::getline(in, item, ',')) {
      char* end = nullptr;
      const double v = std::strtod(item.c_str(), &end);
      if (item.empty() || *end != '\0' || !std::isfinite(v)) return std::nullopt;  // measured again
      values.push_back(v);
    }
    return values;
  }
  return std::nullopt;
}

std::string write_measured(const std::string& named, const std::string& key, const std::vector<double>& values) {
  return locked(named, [&](const std::string& path) {
    const std::string prefix = kMeasured + key + "=";
    std::ostringstream body;
    body.precision(9);
    if (const auto mc = read_tuning_file(path)) write_machine(body, *mc);
    std::vector<std::string> kept;
    for (const std::string& line : measured_lines(path))
      if (line.rfind(prefix, 0) != 0) kept.push_back(line);
    // Bounded: the oldest entries go first (they are measured again when needed).
    const std::size_t first = kept.size() > kMaxMeasured - 1 ? kept.size() - (kMaxMeasured - 1) : 0;
    for (std::size_t i = first; i < kept.size(); ++i) body << kept[i] << "\n";
    body << prefix;
    for (std::size_t i = 0; i < values.size(); ++i) body << (i ? "," : "") << values[i];
    body << "\n";
    return write_atomically(path, body.str());
  });
}

}  // namespace hympi::hsumma::scalapack

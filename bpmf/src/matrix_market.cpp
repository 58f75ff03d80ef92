#include "bpmf/matrix_market.hpp"

#include <zlib.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>

namespace bpmf {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Reads lines through zlib (gzip or plain) and keeps the line number for messages.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path) {
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (!file_) {
      const int err = errno;
      throw InputError("cannot open '" + path + "': " + (err ? std::strerror(err) : "zlib could not open it"));
    }
    gzbuffer(file_, 1 << 16);
  }
  ~LineReader() {
    if (file_) gzclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool next(std::string& line) {
    line.clear();
    char buf[4096];
    for (;;) {
      const bool got = gzgets(file_, buf, sizeof buf) != nullptr;
      // Checked after every call: zlib reports a compressed stream cut short as
      // Z_BUF_ERROR ("unexpected end of file") while still handing out the bytes it
      // decoded, so a cut line would otherwise parse as a shorter number.
      int code = 0;
      const char* msg = gzerror(file_, &code);
      if (code == Z_BUF_ERROR)
        fail(std::string("the compressed file is truncated (") + msg + "): it ends before its gzip trailer");
      if (code != Z_OK) fail(std::string("read error: ") + msg);
      if (!got) {
        if (line.empty()) return false;
        break;
      }
      line += buf;
      if (!line.empty() && line.back() == '\n') break;
    }
    ++number_;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return true;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("'" + path_ + "', line " + std::to_string(number_) + ": " + what);
  }
  long number() const { return number_; }

 private:
  std::string path_;
  gzFile file_ = nullptr;
  long number_ = 0;
};

bool blank(const std::string& line) {
  return line.find_first_not_of(" \t") == std::string::npos;
}

// Parses an integer token; false on anything but a whole base-10 integer.
bool parse_int(const char*& p, long long& out) {
  char* end = nullptr;
  errno = 0;
  out = std::strtoll(p, &end, 10);
  if (end == p || errno == ERANGE || (*end && *end != ' ' && *end != '\t')) return false;
  p = end;
  return true;
}

bool parse_double(const char*& p, double& out) {
  char* end = nullptr;
  errno = 0;
  out = std::strtod(p, &end);
  if (end == p || (*end && *end != ' ' && *end != '\t')) return false;
  p = end;
  return std::isfinite(out);
}

bool only_space(const char* p) {
  return std::strspn(p, " \t") == std::strlen(p);
}

void check_header(LineReader& in, const std::string& line) {
  std::istringstream words(line);
  std::string banner, object, format, field, symmetry, extra;
  words >> banner >> object >> format >> field >> symmetry;
  if (banner != "%%MatrixMarket") in.fail("not a Matrix Market file (the first line must start with '%%MatrixMarket')");
  if (lower(object) != "matrix" || lower(format) != "coordinate")
    in.fail("malformed header '" + line + "': expected 'matrix coordinate'");
  if (lower(field) != "real" && lower(field) != "integer" && lower(field) != "double")
    in.fail("unsupported field '" + field + "' in the header: expected 'real' (or 'integer')");
  if (lower(symmetry) != "general") in.fail("unsupported symmetry '" + symmetry + "': expected 'general'");
  if (words >> extra) in.fail("malformed header '" + line + "': unexpected '" + extra + "'");
}

}  // namespace

Ratings read_matrix_market(const std::string& path) {
  LineReader in(path);
  std::string line;
  if (!in.next(line)) throw InputError("'" + path + "' is empty (expected a Matrix Market header)");
  check_header(in, line);

  // Comments, then the size line.
  do {
    if (!in.next(line)) in.fail("no size line (rows cols entries) after the header");
  } while (line.empty() || line[0] == '%' || blank(line));
  long long rows = 0, cols = 0, nnz = 0;
  const char* p = line.c_str();
  if (!parse_int(p, rows) || !parse_int(p, cols) || !parse_int(p, nnz) || !only_space(p))
    in.fail("malformed size line '" + line + "': expected 'rows cols entries'");
  const long long max_index = std::numeric_limits<std::int32_t>::max();
  if (rows < 1 || cols < 1 || nnz < 0 || rows > max_index || cols > max_index)
    in.fail("bad matrix size '" + line + "': rows and columns must be in [1, 2^31), entries >= 0");

  Ratings r;
  r.rows = rows;
  r.cols = cols;
  r.entries.reserve(static_cast<std::size_t>(std::min<long long>(nnz, 1LL << 26)));
  while (static_cast<long long>(r.entries.size()) < nnz) {
    if (!in.next(line))
      throw InputError("'" + path + "': expected " + std::to_string(nnz) + " entries, found only " +
                       std::to_string(r.entries.size()));
    if (line.empty() || line[0] == '%' || blank(line)) continue;
    long long i = 0, j = 0;
    double v = 0.0;
    p = line.c_str();
    if (!parse_int(p, i) || !parse_int(p, j) || !parse_double(p, v) || !only_space(p))
      in.fail("malformed entry '" + line + "': expected 'row col value' (1-based integers, a finite real)");
    if (i < 1 || i > rows || j < 1 || j > cols)
      in.fail("index out of range in '" + line + "': the matrix is " + std::to_string(rows) + " x " +
              std::to_string(cols) + " (indices are 1-based)");
    r.entries.push_back({static_cast<std::int32_t>(i - 1), static_cast<std::int32_t>(j - 1), v});
  }
  while (in.next(line))
    if (!line.empty() && line[0] != '%' && !blank(line))
      in.fail("more entries than the " + std::to_string(nnz) + " announced in the size line");
  return r;
}

void check_test_within_train(const Ratings& train, const Ratings& test, const std::string& test_name) {
  for (std::size_t k = 0; k < test.entries.size(); ++k) {
    const auto& e = test.entries[k];
    if (e.row >= train.rows || e.col >= train.cols)
      throw InputError("test entry " + std::to_string(k + 1) + " of '" + test_name + "' at (" +
                       std::to_string(e.row + 1) + ", " + std::to_string(e.col + 1) +
                       ") lies outside the training matrix (" + std::to_string(train.rows) + " x " +
                       std::to_string(train.cols) + ")");
  }
}

void write_matrix_market(const std::string& path, const Ratings& ratings, const std::string& comment) {
  const bool gz = ends_with(path, ".gz");
  gzFile out = gzopen(path.c_str(), gz ? "wb6" : "wbT");  // T: plain, uncompressed
  if (!out) throw InputError("cannot open '" + path + "' for writing: " + std::strerror(errno));
  std::ostringstream s;
  s.precision(17);
  s << "%%MatrixMarket matrix coordinate real general\n";
  if (!comment.empty()) s << "% " << comment << '\n';
  s << ratings.rows << ' ' << ratings.cols << ' ' << ratings.entries.size() << '\n';
  bool ok = gzputs(out, s.str().c_str()) >= 0;
  char buf[96];
  for (const auto& e : ratings.entries) {
    const int len = std::snprintf(buf, sizeof buf, "%d %d %.17g\n", e.row + 1, e.col + 1, e.value);
    ok = ok && gzwrite(out, buf, static_cast<unsigned>(len)) == len;
  }
  ok = (gzclose(out) == Z_OK) && ok;
  if (!ok) throw InputError("error writing '" + path + "'");
}

}  // namespace bpmf

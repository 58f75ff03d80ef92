#include "bpmf/npy.hpp"

#include <cstring>
#include <regex>

#include "bpmf/durable_file.hpp"
#include "bpmf/matrix_market.hpp"

namespace bpmf {

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;
}  // namespace

void write_npy(const std::string& path, const double* values, std::int64_t rows, std::int64_t cols) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(cols) + "), }";
  // Magic, version, 2-byte length, header: padded with spaces to a multiple of 64, ending in '\n'.
  const std::size_t prefix = kMagicBytes + 2 + 2;
  header.append(63 - (prefix + header.size()) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicBytes);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(values), static_cast<std::size_t>(rows * cols) * sizeof(double));
  write_file_durably(path, out);
}

NpyMatrix read_npy(const std::string& path) {
  const std::string bytes = read_whole_file(path);
  const auto bad = [&](const std::string& why) { return InputError("'" + path + "' " + why); };
  if (bytes.size() < 10 || bytes.compare(0, kMagicBytes, kMagic, kMagicBytes) != 0 || bytes[6] != '\x01')
    throw bad("is not a version 1.0 .npy file");
  const std::size_t length = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
  if (bytes.size() < 10 + length) throw bad("is truncated (header)");
  const std::string header = bytes.substr(10, length);
  std::smatch m;
  static const std::regex shape(R"(\{'descr': '<f8', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \})");
  if (!std::regex_search(header, m, shape)) throw bad("is not a 2-D float64 C-order .npy matrix");
  NpyMatrix out;
  out.rows = std::stoll(m[1]);
  out.cols = std::stoll(m[2]);
  const std::size_t n = static_cast<std::size_t>(out.rows * out.cols);
  if (bytes.size() != 10 + length + n * sizeof(double))
    throw bad("holds " + std::to_string(bytes.size() - 10 - length) + " data bytes, not " +
              std::to_string(n * sizeof(double)));
  out.values.resize(n);
  std::memcpy(out.values.data(), bytes.data() + 10 + length, n * sizeof(double));
  return out;
}

}  // namespace bpmf

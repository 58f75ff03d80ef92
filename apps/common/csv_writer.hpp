// CSV output shared by every app: a fixed header, one row per measurement,
// appended to an existing file only when its header matches (so sweeps can add
// rows and nothing already written is lost). Written on one rank only.
#pragma once
#include <fstream>
#include <string>
#include <vector>

namespace hympi::apps {

class CsvWriter {
 public:
  CsvWriter() = default;
  // Opens `path` for appending ("" = disabled, "-" = stdout). Writes the header if
  // the file is new or empty; throws if an existing file has a different header.
  CsvWriter(const std::string& path, std::vector<std::string> columns);
  bool enabled() const { return enabled_; }
  // One row; throws if the number of fields differs from the header.
  void row(const std::vector<std::string>& fields);

 private:
  bool enabled_ = false;
  bool to_stdout_ = false;
  std::size_t columns_ = 0;
  std::ofstream out_;
};

std::string csv_escape(const std::string& field);
std::string fmt(double value, int precision = 6);

}  // namespace hympi::apps

// CSV output shared by every app: a fixed header, one row per measurement,
// appended to an existing file only when it has the same columns (so sweeps can add
// rows and nothing already written is lost). Written on one rank only. Apps write
// records (record.hpp); this is the file underneath.
#pragma once
#include <fstream>
#include <string>
#include <vector>

namespace hympi::apps {

class CsvWriter {
 public:
  CsvWriter() = default;
  // Opens `path` for appending ("" = disabled, "-" = stdout). Writes the header if
  // the file is new or empty. An existing file with the same columns in another
  // order (written before the column order changed) gets its rows in its own order;
  // other columns throw hympi::Error(invalid_argument).
  CsvWriter(const std::string& path, std::vector<std::string> columns);
  bool enabled() const { return enabled_; }
  // One row; throws if the number of fields differs from the header.
  void row(const std::vector<std::string>& fields);

 private:
  bool enabled_ = false;
  bool to_stdout_ = false;
  std::size_t columns_ = 0;
  std::vector<std::size_t> order_;  // file column i holds field order_[i]
  std::ofstream out_;
};

std::string csv_escape(const std::string& field);
std::string fmt(double value, int precision = 6);

}  // namespace hympi::apps

#include "csv_writer.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace hympi::apps {

namespace {
std::string join(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += csv_escape(fields[i]);
  }
  return line;
}
}  // namespace

std::string csv_escape(const std::string& field) {
  if (field.find_first_of(",\"\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string fmt(double value, int precision) {
  std::ostringstream s;
  s.precision(precision);
  s << value;
  return s.str();
}

CsvWriter::CsvWriter(const std::string& path, std::vector<std::string> columns) : columns_(columns.size()) {
  if (path.empty()) return;
  enabled_ = true;
  const std::string header = join(columns);
  if (path == "-") {
    to_stdout_ = true;
    std::cout << header << '\n';
    return;
  }
  std::string existing;
  {
    std::ifstream in(path);
    if (in) std::getline(in, existing);
  }
  if (!existing.empty() && existing != header)
    throw std::runtime_error("CSV file '" + path + "' exists with a different header; choose another --csv path");
  out_.open(path, std::ios::app);
  if (!out_) throw std::runtime_error("cannot open CSV file '" + path + "' for appending");
  if (existing.empty()) out_ << header << '\n' << std::flush;
}

void CsvWriter::row(const std::vector<std::string>& fields) {
  if (!enabled_) return;
  if (fields.size() != columns_) throw std::logic_error("CSV row has the wrong number of fields");
  if (to_stdout_) {
    std::cout << join(fields) << '\n' << std::flush;
  } else {
    out_ << join(fields) << '\n' << std::flush;  // flushed per row: a killed run keeps its rows
  }
}

}  // namespace hympi::apps

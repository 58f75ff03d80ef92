#include "csv_writer.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "hympi/error.hpp"

namespace hympi::apps {

namespace {
// The header line split at commas (column names never hold commas or quotes).
std::vector<std::string> split_header(const std::string& line) {
  std::vector<std::string> names;
  std::stringstream in(line);
  for (std::string name; std::getline(in, name, ',');) names.push_back(name);
  return names;
}

// Where each of the file's columns is among `columns`; empty if the sets differ.
std::vector<std::size_t> file_order(const std::vector<std::string>& file, const std::vector<std::string>& columns) {
  if (file.size() != columns.size()) return {};
  std::vector<std::size_t> order;
  for (const auto& name : file) {
    std::size_t i = 0;
    while (i < columns.size() && columns[i] != name) ++i;
    if (i == columns.size()) return {};
    order.push_back(i);
  }
  return order;
}

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
  if (!existing.empty() && existing != header) {
    order_ = file_order(split_header(existing), columns);
    if (order_.empty())
      throw Error(ErrorCode::invalid_argument,
                  "CSV file '" + path + "' exists with a different header; choose another --csv path");
  }
  out_.open(path, std::ios::app);
  if (!out_) throw Error(ErrorCode::invalid_argument, "cannot open CSV file '" + path + "' for appending");
  if (existing.empty()) out_ << header << '\n' << std::flush;
}

void CsvWriter::row(const std::vector<std::string>& fields) {
  if (!enabled_) return;
  if (fields.size() != columns_) throw std::logic_error("CSV row has the wrong number of fields");
  if (to_stdout_) {
    std::cout << join(fields) << '\n' << std::flush;
    return;
  }
  if (order_.empty()) {
    out_ << join(fields) << '\n' << std::flush;  // flushed per row: a killed run keeps its rows
    return;
  }
  std::vector<std::string> reordered;
  for (std::size_t i : order_) reordered.push_back(fields[i]);
  out_ << join(reordered) << '\n' << std::flush;
}

}  // namespace hympi::apps

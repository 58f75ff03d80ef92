// One CSV record: the (column, value) pairs of one measurement, built in one place
// per app so a column and its value cannot drift apart. RecordCsv writes records
// with the run metadata (run_info.hpp) FIRST, then the app's columns in the order
// the app added them: the one column order of every app's CSV.
#pragma once
#include <mpi.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "csv_writer.hpp"
#include "run_info.hpp"

namespace hympi::apps {

class Record {
 public:
  // Text as is; bool as 1/0; integers in decimal; doubles with `fmt` (6 digits).
  template <class T>
  Record& add(std::string column, const T& value) {
    if constexpr (std::is_same_v<T, bool>)
      return put(std::move(column), value ? "1" : "0");
    else if constexpr (std::is_integral_v<T>)
      return put(std::move(column), std::to_string(value));
    else if constexpr (std::is_floating_point_v<T>)
      return put(std::move(column), fmt(value));
    else
      return put(std::move(column), std::string(value));
  }
  Record& add(std::string column, double value, int precision) { return put(std::move(column), fmt(value, precision)); }
  Record& append(const Record& other);

  std::vector<std::string> columns() const;
  std::vector<std::string> values() const;

 private:
  Record& put(std::string column, std::string value);
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// The run metadata as a record: date, host, mpi, blas, git, ranks, nodes,
// ranks_per_node, layout.
Record run_info_record(const RunInfo& info);

class RecordCsv {
 public:
  RecordCsv() = default;  // disabled
  // Collective over `comm`: rank 0 opens `path` (csv_writer.hpp: "" = none, "-" =
  // stdout) for records with the columns of `shape`, preceded by the metadata of
  // `info` unless it is null; every rank learns whether that worked and a failure
  // throws hympi::Error(invalid_argument) on all of them. Other ranks write nothing.
  static RecordCsv open(MPI_Comm comm, const std::string& path, const Record& shape, const RunInfo* info);
  bool enabled() const { return csv_.enabled(); }
  // Throws std::logic_error if `record` has other columns than `shape` had.
  void write(const Record& record);

 private:
  CsvWriter csv_;
  std::vector<std::string> columns_;  // the app's, without the metadata
  std::vector<std::string> metadata_;
};

}  // namespace hympi::apps

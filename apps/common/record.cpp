#include "record.hpp"

#include <exception>
#include <stdexcept>

#include "app.hpp"

namespace hympi::apps {

Record& Record::put(std::string column, std::string value) {
  pairs_.emplace_back(std::move(column), std::move(value));
  return *this;
}

Record& Record::append(const Record& other) {
  pairs_.insert(pairs_.end(), other.pairs_.begin(), other.pairs_.end());
  return *this;
}

std::vector<std::string> Record::columns() const {
  std::vector<std::string> list;
  for (const auto& pair : pairs_) list.push_back(pair.first);
  return list;
}

std::vector<std::string> Record::values() const {
  std::vector<std::string> list;
  for (const auto& pair : pairs_) list.push_back(pair.second);
  return list;
}

Record run_info_record(const RunInfo& info) {
  const std::pair<const char*, std::string> pairs[] = {{"date", info.date},
                                                       {"host", info.host},
                                                       {"mpi", info.mpi},
                                                       {"blas", info.blas},
                                                       {"git", info.git},
                                                       {"ranks", std::to_string(info.ranks)},
                                                       {"nodes", std::to_string(info.nodes)},
                                                       {"ranks_per_node", std::to_string(info.ranks_per_node)},
                                                       {"layout", info.layout}};
  Record record;
  for (const auto& [column, value] : pairs) record.add(column, value);
  return record;
}

RecordCsv RecordCsv::open(MPI_Comm comm, const std::string& path, const Record& shape, const RunInfo* info) {
  RecordCsv out;
  out.columns_ = shape.columns();
  if (info) out.metadata_ = run_info_record(*info).values();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  if (rank == 0) {
    try {
      const Record header = info ? run_info_record(*info).append(shape) : shape;
      out.csv_ = CsvWriter(path, header.columns());
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  agree_on_success(comm, error);
  return out;
}

void RecordCsv::write(const Record& record) {
  if (!csv_.enabled()) return;
  if (record.columns() != columns_) throw std::logic_error("a CSV record has other columns than its file");
  std::vector<std::string> fields = metadata_;
  for (auto& value : record.values()) fields.push_back(std::move(value));
  csv_.row(fields);
}

}  // namespace hympi::apps

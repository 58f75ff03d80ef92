#include "baseline.hpp"

#include <mpi.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "hympi/error.hpp"

namespace hympi::bench {

namespace {

using Setting = std::pair<const char*, const char*>;  // MPI_T name, hierarchical value

#if defined(OPEN_MPI)
constexpr const char* kFamily = "Open MPI";
const std::vector<Setting> kSettings = {{"coll_han_priority", "100"}};
std::string environment_name(const char* name) {
  return std::string("OMPI_MCA_") + name;
}
#elif defined(MPICH_VERSION)
constexpr const char* kFamily = "MPICH";
const std::vector<Setting> kSettings = {{"MPIR_CVAR_DEVICE_COLLECTIVES", "none"},
                                        {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "smp"},
                                        {"MPIR_CVAR_REDUCE_INTRA_ALGORITHM", "smp"},
                                        {"MPIR_CVAR_BCAST_INTRA_ALGORITHM", "smp"}};
std::string environment_name(const char* name) {
  return name;
}
#else
constexpr const char* kFamily = "";
const std::vector<Setting> kSettings = {};
std::string environment_name(const char* name) {
  return name;
}
#endif

std::string baseline_in(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--baseline") == 0 && i + 1 < argc) return argv[i + 1];
    if (std::strncmp(argv[i], "--baseline=", 11) == 0) return argv[i] + 11;
  }
  return "default";
}

#if defined(OPEN_MPI) || defined(MPICH_VERSION)
// The value of one control variable as text (enum values by their name); "" if
// this library has no such variable or it cannot be read.
std::string read_cvar(const char* name) {
  int index = 0;
  if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS) return "";
  char cvar_name[256], desc[8];
  int name_len = sizeof cvar_name, desc_len = sizeof desc, verbosity = 0, bind = 0, scope = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_T_enum enumtype = MPI_T_ENUM_NULL;
  if (MPI_T_cvar_get_info(index, cvar_name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len, &bind, &scope) !=
          MPI_SUCCESS ||
      bind != MPI_T_BIND_NO_OBJECT || type != MPI_INT)
    return "";
  MPI_T_cvar_handle handle;
  int count = 0, value = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return "";
  const bool read = count == 1 && MPI_T_cvar_read(handle, &value) == MPI_SUCCESS;
  MPI_T_cvar_handle_free(&handle);
  if (!read) return "";
  if (enumtype != MPI_T_ENUM_NULL) {
    int items = 0, item_value = 0;
    char enum_name[64], item_name[64];
    int enum_len = sizeof enum_name;
    MPI_T_enum_get_info(enumtype, &items, enum_name, &enum_len);
    for (int i = 0; i < items; ++i) {
      int item_len = sizeof item_name;
      if (MPI_T_enum_get_item(enumtype, i, &item_value, item_name, &item_len) == MPI_SUCCESS && item_value == value)
        return item_name;
    }
  }
  return std::to_string(value);
}

// Reads every setting of kSettings: the values, or "" for the ones missing.
std::vector<std::string> read_settings() {
  std::vector<std::string> values;
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return std::vector<std::string>(kSettings.size());
  for (const auto& setting : kSettings) values.push_back(read_cvar(setting.first));
  MPI_T_finalize();
  return values;
}
#else
std::vector<std::string> read_settings() {
  return {};
}  // no MPI_T (SimGrid SMPI): nothing to read
#endif

// MPICH 4.0 reports its enum variables by code, without names: a code where a name
// is expected says the variable exists, which is all that can be checked.
bool is_enum_code(const std::string& value, const char* expected) {
  const bool expected_name = std::isalpha(static_cast<unsigned char>(expected[0]));
  return expected_name && !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

void apply_baseline_environment(int argc, char** argv) {
  const bool hierarchical = baseline_in(argc, argv) == "hierarchical";
  for (const auto& [name, value] : kSettings) {
    const std::string variable = environment_name(name);
    if (hierarchical)
      setenv(variable.c_str(), value, 1);
    else
      unsetenv(variable.c_str());
  }
}

std::string check_baseline(const std::string& baseline) {
  if (baseline == "hierarchical" && kSettings.empty())
    throw Error(ErrorCode::invalid_argument,
                "--baseline hierarchical: only known for Open MPI (coll/han) and MPICH (smp algorithms); this MPI "
                "has neither");
  const auto values = read_settings();
  std::string text;
  for (std::size_t i = 0; i < kSettings.size(); ++i) {
    if (baseline == "hierarchical" && values[i] != kSettings[i].second && !is_enum_code(values[i], kSettings[i].second))
      throw Error(ErrorCode::invalid_argument, std::string("--baseline hierarchical: this ") + kFamily +
                                                   " does not use " + kSettings[i].first + "=" + kSettings[i].second +
                                                   " (its value: '" + values[i] +
                                                   "'; no such variable means the component is not built)");
    if (!values[i].empty()) text += (text.empty() ? "" : ";") + std::string(kSettings[i].first) + "=" + values[i];
  }
  return text;
}

}  // namespace hympi::bench

#include "c_api/info.hpp"

#include <string>
#include <vector>

#include "hympi/error.hpp"
#include "options.hpp"

namespace hympi::c_api {

namespace {

// The value of `key`, or false when info does not hold it.
bool lookup(MPI_Info info, const char* key, std::string& value) {
  int length = 0, found = 0;
  HYMPI_CHECK_MPI(MPI_Info_get_valuelen(info, key, &length, &found));
  if (!found) return false;
  std::vector<char> text(static_cast<std::size_t>(length) + 1, '\0');
#if MPI_VERSION >= 4
  int buflen = length + 1;
  HYMPI_CHECK_MPI(MPI_Info_get_string(info, key, &buflen, text.data(), &found));
#else
  HYMPI_CHECK_MPI(MPI_Info_get(info, key, length, text.data(), &found));
#endif
  value.assign(text.data());
  return found != 0;
}

}  // namespace

CollectiveOptions options_from_info(MPI_Info info, const char* call) {
  CollectiveOptions options;
  if (info == MPI_INFO_NULL) return options;
  std::string value;
  // Every key of the core's one options table, with key and value in the message.
  for (const detail::OptionKey& key : detail::option_keys()) {
    if (!lookup(info, key.name, value)) continue;
    if (!key.parse(options, value))
      throw Error(ErrorCode::invalid_argument, std::string("hympi: ") + call + ": info key '" + key.name +
                                                   "' has value '" + value + "'; expected " + key.type);
  }
  return options;
}

}  // namespace hympi::c_api

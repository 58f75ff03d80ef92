#include "tuning_file.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace hympi::hsumma::scalapack {

namespace {

constexpr const char* kHeader = "# hympi tuning file v1";

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "unknown";
  return name;
}

bool plausible(double v, double lo, double hi) {
  return std::isfinite(v) && v >= lo && v <= hi;
}

}  // namespace

std::string tuning_file_path() {
  if (const char* p = std::getenv("HYMPI_TUNING_FILE"); p && *p) return p;
  const std::string file = "hympi/tuning-" + host_name() + ".txt";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/" + file;
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/" + file;
  return "";
}

std::optional<model::Machine> read_tuning_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  const auto corrupt = [&](const std::string& why) {
    std::fprintf(stderr, "hympi pdgemm: ignoring tuning file %s: %s (it will be measured again)\n", path.c_str(),
                 why.c_str());
    return std::nullopt;
  };
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return corrupt("first line is not '" + std::string(kHeader) + "'");
  std::map<std::string, double> values;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) return corrupt("line '" + line + "' is not key=value");
    char* end = nullptr;
    const std::string text = line.substr(eq + 1);
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') return corrupt("value of '" + line.substr(0, eq) + "' is not a number");
    values[line.substr(0, eq)] = v;
  }
  model::Machine mc;
  for (const auto& [key, target, lo, hi] :
       {std::tuple{"alpha", &mc.alpha, 1e-9, 1.0}, std::tuple{"beta", &mc.beta, 1e-13, 1e-3},
        std::tuple{"gamma", &mc.gamma, 1e6, 1e15}}) {
    const auto it = values.find(key);
    if (it == values.end()) return corrupt(std::string("no ") + key);
    if (!plausible(it->second, lo, hi)) return corrupt(std::string(key) + " out of range");
    *target = it->second;
  }
  return mc;
}

std::string write_tuning_file(const std::string& path, const model::Machine& mc) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return "cannot create " + target.parent_path().string() + ": " + ec.message();
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp);
    if (!out) return "cannot create " + tmp;
    out << kHeader << "\n# measured by hympi's drop-in pdgemm (groups=auto) on " << host_name()
        << "; delete the file to measure again\n";
    out.precision(9);
    out << "alpha=" << mc.alpha << "\nbeta=" << mc.beta << "\ngamma=" << mc.gamma << "\n";
    if (!out.flush()) return "cannot write " + tmp;
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    const std::string why = "cannot write " + path + ": " + ec.message();
    fs::remove(tmp, ec);
    return why;
  }
  return "";
}

}  // namespace hympi::hsumma::scalapack

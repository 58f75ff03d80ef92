// The per-machine tuning file of groups=auto: alpha, beta and the DGEMM rate
// measured once by the probe (machine_probe.hpp) and reused by later runs.
// Never required: a missing file means "probe"; an unreadable or corrupt one
// is ignored with a warning; an unwritable location warns once per process.
#pragma once
#include <optional>
#include <string>

#include "hympi/hsumma/cost_model.hpp"

namespace hympi::hsumma::scalapack {

// HYMPI_TUNING_FILE, else $XDG_CACHE_HOME/hympi/tuning-<host>.txt, else
// $HOME/.cache/hympi/tuning-<host>.txt; "" when none of them is set.
std::string tuning_file_path();

// The machine stored at `path`, or nothing (missing: silently; corrupt or
// implausible: with a warning on stderr naming the file and the problem).
std::optional<model::Machine> read_tuning_file(const std::string& path);

// Writes (atomically: temporary file + rename, creating the directory) and
// returns "" or the problem; the caller warns.
std::string write_tuning_file(const std::string& path, const model::Machine& mc);

}  // namespace hympi::hsumma::scalapack

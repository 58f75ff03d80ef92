// The per-machine tuning file of groups=auto: alpha, beta and the DGEMM rate
// measured once by the probe (machine_probe.hpp) and reused by later runs.
// Never required: a missing file means "probe"; an unreadable or corrupt one
// is ignored with a warning; an unwritable location warns once per process.
// Only a regular file (or a symbolic link to one: written through) is used: a
// device, FIFO, directory, socket or a link to one or to nothing is refused by
// every function here with a message saying what it is, and left alone (never
// opened, renamed over, or given a lock file beside it); the replacement itself
// is an atomic swap undone when a non-regular node appeared after the check
// (tuning_file.cpp: replace_regular).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hympi/hsumma/cost_model.hpp"
#include "hympi/pdgemm_machine.hpp"

namespace hympi::hsumma::scalapack {

// tuning_file_path() (where the file is): hympi/pdgemm_machine.hpp.

// The machine stored at `path`, or nothing (missing: silently; corrupt or
// implausible: with a warning on stderr naming the file and the problem).
std::optional<model::Machine> read_tuning_file(const std::string& path);

// Writes (atomically: temporary file + rename, creating the directory) and
// returns "" or the problem; the caller warns. Measured entries already in the
// file are kept. Writers in several processes (two grids, two jobs) take turns
// through a lock file beside it ("<path>.lock"), so nobody's entry is lost.
std::string write_tuning_file(const std::string& path, const model::Machine& mc);

// model=measured's results, lines "measured.<key>=v1,v2,..." of the same file
// (key: letters, digits and ._x-). A file holding only such lines has no
// machine (read_tuning_file: nothing, silently).
std::optional<std::vector<double>> read_measured(const std::string& path, const std::string& key);
// Adds or replaces one entry, keeping every other line; "" or the problem.
std::string write_measured(const std::string& path, const std::string& key, const std::vector<double>& values);

// Tests only: called with the file's path between the check that it is a
// regular file and its use (`moment`: "read" before it is opened, "replace"
// before the new file takes its place), where another process could put a
// FIFO, a device or a directory there. Null in programs.
extern void (*tuning_file_after_check)(const std::string& path, const char* moment);

}  // namespace hympi::hsumma::scalapack

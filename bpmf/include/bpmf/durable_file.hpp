// Files that are either whole or absent after a crash: written to a temporary name
// in the same directory, fsync'ed, renamed over the target, and the directory
// fsync'ed, so a killed run leaves the previous version intact.
#pragma once
#include <string>

namespace bpmf {

// Throws InputError naming the path and the system's reason.
void write_file_durably(const std::string& path, const std::string& bytes);

// The whole file; throws InputError naming the path when it cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace bpmf

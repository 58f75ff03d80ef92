// Files that are either whole or absent after a crash: written to a temporary name
// in the same directory, fsync'ed, renamed over the target, and the directory
// fsync'ed, so a killed run leaves the previous version intact.
#pragma once
#include <string>

namespace bpmf {

// Throws InputError naming the path and the system's reason.
void write_file_durably(const std::string& path, const std::string& bytes);

// Removes the temporaries <path>.tmp.<pid> that write_file_durably leaves when its
// process is killed mid-write (a checkpoint's size each). Only for a path that no
// running process can be writing (the caller holds its directory's lock). Returns
// how many it removed.
int remove_leftover_temporaries(const std::string& path);

// The whole file; throws InputError naming the path when it cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace bpmf

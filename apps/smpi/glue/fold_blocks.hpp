// The process-wide table of SMPI-shared blocks (fold_blocks.cpp): memory every simulated
// rank may use for bytes nobody reads (timing runs), one block per power-of-two size class.
#pragma once

#include <cstddef>

extern "C" {
// The block of 2^size_class bytes (nullptr outside 0..47), created on first use, never freed.
void* hympi_smpi_fold_block(int size_class);
// The block of the smallest size class (at least one page) holding `bytes`.
void* hympi_smpi_fold_block_for(std::size_t bytes);
// Whether p is one of the blocks.
int hympi_smpi_is_fold_block(const void* p);
}

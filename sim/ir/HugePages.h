#pragma once

#include <cstddef>

namespace kl::sim {

/// Asks the kernel to back the 2 MiB-aligned part of [data, data + bytes) with transparent huge pages, where the
/// system allows them on request (`madvise` mode), and maps the range's whole pages at once (MADV_POPULATE_WRITE).
/// For the IR's large arrays, reserved once at their final size and then filled front to back: a million-instruction
/// IR is ~100 MB, 25,000 page faults in 4 KiB pages (a third of its load time, measured with perf) and 50 in 2 MiB
/// ones, and the pages that stay small (a 100,000-instruction IR's arrays, the huge pages' edges) are mapped in one
/// call instead of one fault each (under virtualization a fault is an exit: the populate halved that IR's load).
/// Call it only for capacity that will be filled (it commits the memory now rather than at first touch). Only advice:
/// contents and sizes are unchanged, and where the kernel refuses nothing happens.
void adviseHugePages(const void* data, std::size_t bytes);

} // namespace kl::sim

#pragma once

#include <cstddef>

namespace kl::sim {

/// Asks the kernel to back the 2 MiB-aligned part of [data, data + bytes) with transparent huge pages, where the
/// system allows them on request (`madvise` mode). For the IR's large arrays, reserved once at their final size and
/// then filled front to back: a million-instruction IR is ~100 MB, 25,000 page faults in 4 KiB pages (a third of
/// its load time, measured with perf) and 50 in 2 MiB ones. Only advice: contents and sizes are unchanged, and
/// where the kernel refuses nothing happens.
void adviseHugePages(const void* data, std::size_t bytes);

} // namespace kl::sim

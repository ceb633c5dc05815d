#include "ir/HugePages.h"

#include <sys/mman.h>

#include <cstdint>

namespace kl::sim {

void adviseHugePages(const void* data, std::size_t bytes) {
    if (data == nullptr) {
        return;
    }
    const auto from = reinterpret_cast<std::uintptr_t>(data);
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
    const std::uintptr_t hugeBegin = (from + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t hugeEnd = (from + bytes) & ~(kHuge - 1);
    if (hugeEnd > hugeBegin) {
        ::madvise(reinterpret_cast<void*>(hugeBegin), hugeEnd - hugeBegin, MADV_HUGEPAGE);
    }
#endif
#ifdef MADV_POPULATE_WRITE
    // The whole pages of the range, mapped now in one call (huge where advised): filling them page by page costs a
    // fault each, which under virtualization was a fifth to a quarter of a load (perf: the faults' exits).
    constexpr std::uintptr_t kPage = 4096;
    const std::uintptr_t begin = (from + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t end = (from + bytes) & ~(kPage - 1);
    if (end > begin) {
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
    }
#endif
}

} // namespace kl::sim

#include "ir/HugePages.h"

#include <sys/mman.h>

#include <cstdint>

namespace kl::sim {

void adviseHugePages(const void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
    const auto from = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (from + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (from + bytes) & ~(kHuge - 1);
    if (data != nullptr && end > begin) {
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace kl::sim

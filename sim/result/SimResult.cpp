#include "result/SimResult.h"

namespace kl::sim {

std::size_t TimelineData::memoryBytes() const {
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
    return bytes(irId) + bytes(startPs) + bytes(endPs) + bytes(mainStartPs) + bytes(lane) + bytes(op) + bytes(file) +
           bytes(line) + bytes(cause) + bytes(waitOn) + bytes(stallPs) + bytes(lsIndex) + bytes(lsStartPs) +
           bytes(lsEndPs);
}

} // namespace kl::sim

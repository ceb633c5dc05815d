#include "engine/SimTypes.h"

#include <fmt/format.h>

namespace kl::sim {

std::string laneName(std::uint16_t lane) {
    switch (lane) {
    case 0: return "pe.ls";
    case 1: return "pe.mm";
    case 2: return "vector";
    case 3: return "scalar";
    case 4: return "gpsimd";
    default: return fmt::format("dma.q{}", LaneId(lane).queue());
    }
}

std::string laneName(std::uint16_t lane, std::uint32_t perCore) {
    if (perCore == 0) {
        return laneName(lane);
    }
    return fmt::format("c{}.{}", laneCore(lane, perCore), laneName(localLane(lane, perCore)));
}

std::string_view waitCauseName(WaitCause cause) {
    switch (cause) {
    case WaitCause::None: return "none";
    case WaitCause::Dependency: return "dependency";
    case WaitCause::Engine: return "engine";
    case WaitCause::DmaQueue: return "dma_queue";
    case WaitCause::SbufCapacity: return "sbuf_capacity";
    case WaitCause::PsumCapacity: return "psum_capacity";
    case WaitCause::Spill: return "spill";
    case WaitCause::Count: break;
    }
    return "none";
}

std::string_view dmaKindName(DmaKind kind) {
    switch (kind) {
    case DmaKind::Program: return "program";
    case DmaKind::Spill: return "spill";
    case DmaKind::Reload: return "reload";
    }
    return "program";
}

} // namespace kl::sim

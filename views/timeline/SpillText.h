#pragma once

#include "result/SimResult.h"

#include <QString>

#include <cstdint>

namespace kl::views {

/// The words for one spill or reload transfer (SimResult::spills.transfers[k]), worked out once for the
/// timeline's hover text and the inspector, which lay them out differently (the inspector with links).
struct SpillText {
    QString title;      ///< "Spill SBUF → HBM" or "Reload SBUF ← HBM"
    QString tile;       ///< the tile's name, "?" when the run does not know it
    QString declaredAt; ///< "kernel.py:12", or "an unknown line"
    std::uint32_t declLine = 0;
    QString bytes; ///< "4.0 KiB"
    QString queue; ///< the DMA queue lane, "c1.dma.q1"
    QString start; ///< precise enough to tell start and end apart
    QString end;
    QString duration;
    QString purpose; ///< "made room for instruction" or "needed by instruction"
    std::uint32_t forIndex = 0;
};

[[nodiscard]] SpillText describeSpill(const sim::SimResult& result, std::uint32_t k);

} // namespace kl::views

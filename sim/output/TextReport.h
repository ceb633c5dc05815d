#pragma once

#include "result/SimResult.h"

#include <string>
#include <string_view>

namespace kl::sim {

/// Human-readable renderings of a SimResult. Deterministic (no clock, no paths beyond the IR's own file
/// names), so they can be golden files.
class TextReport {
public:
    /// Headline figures, engines, DMA, memory and wait causes:
    ///
    ///   Kernel nki_matmul_tiled on trn1
    ///   Hardware          trn1 (default for legacy neuronxcc.nki kernels)
    ///   Total time            51.803 ms   (32800 instructions)
    ///   TensorE   active  11.6 %   32768 instrs ...
    ///
    /// The Hardware line appears when `hardwareChoice` is given (HardwareChoice::describe(): which profile and why).
    [[nodiscard]] static std::string summary(const SimResult& r, std::string_view hardwareChoice = {});
    /// llvm-mca style timeline of the first `count` instructions: one row each with lane, times, the
    /// wait cause, and a bar over a fixed-width time axis spanning those instructions.
    [[nodiscard]] static std::string timeline(const SimResult& r, std::size_t count, std::size_t width = 64);
};

/// "1.234 ms" / "12.5 us" / "340 ns".
[[nodiscard]] std::string formatDuration(TimePs ps);
/// "12.0 MiB" / "512 B".
[[nodiscard]] std::string formatBytes(double bytes);

} // namespace kl::sim

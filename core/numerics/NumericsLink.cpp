#include "numerics/NumericsLink.h"

namespace kl::core {

bool sameArguments(const NumericsResult& numerics, const std::vector<sim::KernelArg>& irArgs) {
    if (numerics.args.size() != irArgs.size()) {
        return false;
    }
    for (std::size_t i = 0; i < irArgs.size(); ++i) {
        const NumericsTensor& a = numerics.args[i];
        if (a.name != irArgs[i].name || a.shape != irArgs[i].shape || a.dtype != irArgs[i].dtype) {
            return false;
        }
    }
    return true;
}

std::optional<std::uint32_t> irInstructionOf(const NumericsResult& numerics, const NumericsInstruction& instruction,
                                             const sim::KernelIr& ir) {
    if (!sameArguments(numerics, ir.args) || instruction.index < 0 ||
        static_cast<std::uint64_t>(instruction.index) >= ir.instructions().size()) {
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(instruction.index);
}

} // namespace kl::core

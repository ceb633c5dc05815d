#include "timeline/InstructionProducers.h"

#include "engine/DependencyTracker.h"

#include <algorithm>

namespace kl::views {

namespace {

/// One operand of the selected instruction still looking for what it waited on.
struct Open {
    std::uint32_t buffer = sim::kNoIndex;
    sim::Region region;
    bool isWrite = false;
    bool done = false;
};

} // namespace

std::vector<std::uint32_t> instructionProducers(const sim::KernelIr& ir, std::uint32_t index, std::size_t limit) {
    std::vector<std::uint32_t> out;
    const auto& instructions = ir.instructions();
    if (index >= instructions.size()) {
        return out;
    }
    std::vector<Open> open;
    const sim::Instruction& selected = instructions[index];
    const auto addOperands = [&](sim::OperandList aps, bool isWrite) {
        for (const sim::AccessPattern& ap : aps) {
            if (ap.buffer < ir.buffers().size()) {
                open.push_back({ap.buffer, sim::regionOf(ir, ap), isWrite, false});
            }
        }
    };
    addOperands(ir.srcs(selected), false);
    addOperands(ir.dsts(selected), true);
    std::size_t remaining = open.size();
    // Backwards in program order: the nearest producers first, and a covering write ends an operand's search.
    for (std::uint32_t i = index; i-- > 0 && remaining > 0 && out.size() < limit;) {
        const sim::Instruction& in = instructions[i];
        bool depends = false;
        const auto visit = [&](sim::OperandList aps, bool otherWrites) {
            for (const sim::AccessPattern& ap : aps) {
                for (Open& o : open) {
                    // A read depends on earlier writes only; a write on earlier reads and writes.
                    if (o.done || o.buffer != ap.buffer || (!o.isWrite && !otherWrites)) {
                        continue;
                    }
                    const sim::Region r = sim::regionOf(ir, ap);
                    if (!r.overlaps(o.region)) {
                        continue;
                    }
                    depends = true;
                    if (otherWrites && r.contains(o.region)) {
                        o.done = true;
                        --remaining;
                    }
                }
            }
        };
        visit(ir.dsts(in), true);
        visit(ir.srcs(in), false);
        if (depends) {
            out.push_back(i);
        }
    }
    return out;
}

} // namespace kl::views

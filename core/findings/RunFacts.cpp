#include "findings/RunFacts.h"

#include <algorithm>
#include <cstdlib>

namespace kl::core::findings {

using sim::Memory;

RunFacts::RunFacts(const sim::KernelIr& ir, const sim::SimResult& result)
    : m_ir(ir), m_result(result), m_computeBusy(core::computeBusy(result)), m_dmaBusy(core::dmaBusy(result)),
      m_exposedDma(core::subtract(m_dmaBusy, m_computeBusy)) {
    const auto& instructions = ir.instructions();
    m_dmaSlot.assign(instructions.size(), sim::kNoIndex);
    m_dma.reserve(ir.dmaCount());
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].engine == sim::Engine::Dma) {
            m_dmaSlot[i] = static_cast<std::uint32_t>(m_dma.size());
            m_dma.push_back(describeDma(ir, i));
        }
    }
    for (const sim::BufferView b : ir.buffers()) {
        if (b.memory == Memory::Hbm && (b.role == sim::BufferRole::Input || b.role == sim::BufferRole::Output)) {
            double elements = 1;
            for (const std::int64_t d : b.shape) {
                elements *= static_cast<double>(std::max<std::int64_t>(d, 0));
            }
            m_tensorBytes += elements * std::max(b.dtypeBytes, 1);
        }
    }
}

double RunFacts::pctOfRun(sim::TimePs part) const {
    return totalPs() > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(totalPs()) : 0.0;
}

const DmaTransfer* RunFacts::transferAt(std::uint32_t index) const {
    if (index >= m_dmaSlot.size() || m_dmaSlot[index] == sim::kNoIndex) {
        return nullptr;
    }
    return &m_dma[m_dmaSlot[index]];
}

DmaTransfer RunFacts::describeDma(const sim::KernelIr& ir, std::uint32_t index) {
    const sim::Instruction& in = ir.instructions()[index];
    const auto& facts = ir.bufferFacts();
    auto memoryOf = [&](const sim::AccessPattern& ap) {
        return ap.buffer < facts.size() ? facts[ap.buffer].memory : Memory::Hbm;
    };
    DmaTransfer t;
    t.index = index;
    std::int64_t partitions = 0;
    bool dstHbm = false;
    bool srcHbm = false;
    for (const bool isDst : {true, false}) {
        for (const sim::AccessPattern& ap : isDst ? ir.dsts(in) : ir.srcs(in)) {
            if (memoryOf(ap) == Memory::Hbm) {
                (isDst ? dstHbm : srcHbm) = true;
                if (t.hbm == nullptr || !isDst) {
                    t.hbm = &ap; // a load's HBM side is its source
                }
                const auto dims = ir.pattern(ap);
                if (partitions == 0 && dims.size() > 1) {
                    partitions = -dims.front().count; // provisional: an on-chip operand takes precedence
                }
            } else if (partitions <= 0) {
                partitions = ap.partCount;
            }
        }
    }
    t.partitions = std::max<std::int64_t>(std::abs(partitions), 1);
    t.bytes = std::max<std::int64_t>(in.bytes, 0);
    t.bytesPerPartition = static_cast<double>(t.bytes) / static_cast<double>(t.partitions);
    if (srcHbm && dstHbm) {
        t.direction = DmaDirection::HbmToHbm;
    } else if (srcHbm) {
        t.direction = DmaDirection::Load;
    } else if (dstHbm) {
        t.direction = DmaDirection::Store;
    } else {
        t.direction = DmaDirection::OnChip;
    }
    return t;
}

} // namespace kl::core::findings

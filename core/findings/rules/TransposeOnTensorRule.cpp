#include "findings/rules/TransposeOnTensorRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 2> kThresholds = {"min_run_pct", "max_dma_bandwidth_pct"};

enum Writers : std::uint8_t { kLoad = 1, kOther = 2 };

} // namespace

std::span<const std::string_view> TransposeOnTensorRule::thresholds() const {
    return kThresholds;
}

void TransposeOnTensorRule::check(const FindingsInput& in, const RuleSettings& settings,
                                  std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const auto& instructions = in.ir.instructions();
    const auto& facts = in.ir.bufferFacts();
    std::vector<std::uint8_t> writers(facts.size(), 0);
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        const DmaTransfer* t = f.transferAt(i);
        const std::uint8_t kind = t != nullptr && t->direction == DmaDirection::Load ? kLoad : kOther;
        for (const sim::AccessPattern& ap : in.ir.dsts(instructions[i])) {
            if (ap.buffer < writers.size()) {
                writers[ap.buffer] |= kind;
            }
        }
    }
    // TensorE transposes of 2-byte tiles only loads wrote (a DMA transpose needs a 2-byte dtype), and what copying
    // their PSUM results out costs.
    std::vector<std::uint32_t> transposes;
    std::vector<bool> resultBuffer(facts.size(), false);
    sim::TimePs costPs = 0;
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        const sim::Instruction& in0 = instructions[i];
        const auto src = in.ir.srcs(in0);
        if (in0.op != sim::Op::NcTranspose || in0.engine != sim::Engine::Tensor || src.empty() ||
            src.front().buffer >= facts.size() || writers[src.front().buffer] != kLoad) {
            continue;
        }
        const sim::DType dt =
            src.front().dtype != sim::DType::Unknown ? src.front().dtype : facts[src.front().buffer].dtype;
        if (sim::dtypeBytes(dt) != 2) {
            continue;
        }
        transposes.push_back(i);
        costPs += f.durationPs(i);
        for (const sim::AccessPattern& ap : in.ir.dsts(in0)) {
            if (ap.buffer < resultBuffer.size()) {
                resultBuffer[ap.buffer] = true;
            }
        }
    }
    if (transposes.empty()) {
        return;
    }
    std::vector<std::uint32_t> copies;
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].engine == sim::Engine::Tensor || instructions[i].engine == sim::Engine::Dma) {
            continue;
        }
        for (const sim::AccessPattern& ap : in.ir.srcs(instructions[i])) {
            if (ap.buffer < resultBuffer.size() && resultBuffer[ap.buffer]) {
                copies.push_back(i);
                costPs += f.durationPs(i);
                break;
            }
        }
    }
    const double runPct = f.pctOfRun(costPs);
    const double dmaBusy = dmaPoolBusyPct(in);
    if (runPct < settings.value("min_run_pct") || dmaBusy > settings.value("max_dma_bandwidth_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    finding.figures = {
        figure("transpose_cost_pct", runPct, "%", settings.value("min_run_pct")),
        figure("transposes", static_cast<double>(transposes.size()), "instructions"),
        figure("psum_copies", static_cast<double>(copies.size()), "instructions"),
        figure("dma_bandwidth_busy_pct", dmaBusy, "%", settings.value("max_dma_bandwidth_pct")),
    };
    addLineEvidence(in, transposes, 2, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} TensorE transposes of loaded tiles", in.evidence.where(g.loc), g.indices.size());
    });
    addLineEvidence(in, copies, 1, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} copies of transposed tiles out of PSUM", in.evidence.where(g.loc), g.indices.size());
    });
    finding.suggestion =
        "Load these tiles already transposed (nisa.dma_transpose, or nl.load_transpose2d in legacy NKI) while the DMA "
        "queues have room: TensorE and PSUM stay free for matmuls and the copy out of PSUM disappears.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings

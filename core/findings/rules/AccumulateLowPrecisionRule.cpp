#include "findings/rules/AccumulateLowPrecisionRule.h"

#include "findings/CudaScan.h"
#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 1> kThresholds = {"min_steps"};

bool narrow(sim::DType t) {
    return t == sim::DType::BFloat16 || t == sim::DType::Float16 || t == sim::DType::Float8E4M3 ||
           t == sim::DType::Float8E5M2;
}

bool sameRegion(const sim::KernelIr& ir, const sim::AccessPattern& a, const sim::AccessPattern& b) {
    if (a.buffer != b.buffer || a.offset != b.offset || a.partStart != b.partStart || a.partCount != b.partCount ||
        a.patternCount != b.patternCount) {
        return false;
    }
    const auto da = ir.pattern(a);
    const auto db = ir.pattern(b);
    for (std::size_t k = 0; k < da.size(); ++k) {
        if (da[k].stride != db[k].stride || da[k].count != db[k].count) {
            return false;
        }
    }
    return true;
}

} // namespace

std::span<const std::string_view> AccumulateLowPrecisionRule::thresholds() const {
    return kThresholds;
}

void AccumulateLowPrecisionRule::check(const FindingsInput& in, const RuleSettings& settings,
                                       std::vector<Finding>& out) const {
    const auto& instructions = in.ir.instructions();
    const auto& facts = in.ir.bufferFacts();
    // In-place additions into a narrow tile, counted per destination region.
    std::map<std::tuple<std::uint32_t, std::int64_t, std::uint16_t>, std::vector<std::uint32_t>> steps;
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        const sim::Instruction& ins = instructions[i];
        if (ins.op != sim::Op::TensorTensor ||
            (in.ir.attrs(ins).op0 != sim::AluOp::Add && in.ir.attrs(ins).op0 != sim::AluOp::Subtract) ||
            ins.dstCount == 0) {
            continue;
        }
        const sim::AccessPattern& dst = in.ir.dsts(ins).front();
        if (dst.buffer >= facts.size()) {
            continue;
        }
        const sim::DType t = dst.dtype != sim::DType::Unknown ? dst.dtype : facts[dst.buffer].dtype;
        if (!narrow(t)) {
            continue;
        }
        for (const sim::AccessPattern& src : in.ir.srcs(ins)) {
            if (sameRegion(in.ir, src, dst)) {
                steps[{std::uint32_t{dst.buffer}, std::int64_t{dst.offset}, static_cast<std::uint16_t>(dst.partStart)}]
                    .push_back(i);
                break;
            }
        }
    }
    const auto minSteps = static_cast<std::size_t>(settings.value("min_steps"));
    std::vector<std::uint32_t> accumulating;
    std::size_t regions = 0;
    std::size_t longest = 0;
    for (const auto& [key, list] : steps) {
        if (list.size() >= minSteps) {
            accumulating.insert(accumulating.end(), list.begin(), list.end());
            ++regions;
            longest = std::max(longest, list.size());
        }
    }
    if (accumulating.empty()) {
        return;
    }
    std::vector<int> cudaLines;
    if (in.migration != nullptr) {
        cudaLines = CudaScan(in.migration->cudaText, in.migration->cudaKernel).floatAccumulations();
        if (cudaLines.empty()) {
            return; // the CUDA kernel does not accumulate in float either: nothing was lost in the migration
        }
    }
    std::sort(accumulating.begin(), accumulating.end());
    Finding finding = makeFinding(settings);
    if (in.migration == nullptr) {
        finding.severity = milder(settings.severity);
    }
    finding.figures = {
        figure("accumulation_steps", static_cast<double>(longest), "steps", settings.value("min_steps")),
        figure("accumulated_regions", static_cast<double>(regions), "regions"),
        figure("low_precision_adds", static_cast<double>(accumulating.size()), "instructions"),
    };
    addLineEvidence(in, accumulating, 2, finding.evidence, [&](const LineGroup& g) {
        const sim::AccessPattern& dst = in.ir.dsts(instructions[g.indices.front()]).front();
        const sim::DType t = dst.dtype != sim::DType::Unknown ? dst.dtype : facts[dst.buffer].dtype;
        return fmt::format("{}: {} additions into {} ({}), rounded to it at every step", in.evidence.where(g.loc),
                           g.indices.size(), in.ir.buffers()[dst.buffer].name,
                           sim::dtypeBytes(t) == 1 ? "fp8" : "16-bit float");
    });
    if (!cudaLines.empty()) {
        EvidenceItem cuda;
        cuda.note = "the CUDA kernel accumulates in float here";
        for (const int line : cudaLines) {
            if (cuda.lines.size() < kMaxRanges) {
                cuda.lines.push_back({SourceSide::Cuda, in.migration->cudaFile, line, line});
            }
        }
        finding.evidence.push_back(std::move(cuda));
    }
    finding.suggestion = "Accumulate in a float32 tile (in PSUM, or an fp32 SBUF tile) and cast to the output dtype "
                         "once, when the result is stored, as the CUDA kernel's float accumulator does.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings

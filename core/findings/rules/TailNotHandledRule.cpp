#include "findings/rules/TailNotHandledRule.h"

#include "findings/CudaScan.h"
#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 1> kThresholds = {"max_runs"};

using Runs = std::vector<std::pair<std::int64_t, std::int64_t>>; ///< [first, last + 1) flat element indices

/// Appends the contiguous runs of elements an HBM access pattern touches; false when that would pass `budget`.
bool appendRuns(const sim::KernelIr& ir, const sim::AccessPattern& ap, Runs& runs, std::int64_t& budget) {
    const auto dims = ir.pattern(ap);
    std::size_t outer = dims.size();
    std::int64_t runLength = 1;
    if (!dims.empty() && dims.back().stride == 1) {
        runLength = dims.back().count;
        outer = dims.size() - 1;
    }
    std::int64_t count = 1;
    for (std::size_t d = 0; d < outer; ++d) {
        count *= std::max<std::int64_t>(dims[d].count, 0);
        if (count > budget) {
            return false;
        }
    }
    budget -= count;
    std::vector<std::int64_t> idx(outer, 0);
    for (std::int64_t n = 0; n < count; ++n) {
        std::int64_t start = ap.offset;
        for (std::size_t d = 0; d < outer; ++d) {
            start += idx[d] * dims[d].stride;
        }
        runs.emplace_back(start, start + runLength);
        for (std::size_t d = outer; d-- > 0;) {
            if (++idx[d] < dims[d].count) {
                break;
            }
            idx[d] = 0;
        }
    }
    return true;
}

/// The coordinates of a flat index in a row-major shape.
std::vector<std::int64_t> unflatten(std::int64_t flat, std::span<const std::int64_t> shape) {
    std::vector<std::int64_t> c(shape.size(), 0);
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::int64_t n = std::max<std::int64_t>(shape[d], 1);
        c[d] = flat % n;
        flat /= n;
    }
    return c;
}

/// True when `covered` (sorted, disjoint) leaves exactly a trailing band of one dimension unwritten, shorter than half
/// of it: the remainder a loop over whole tiles skips (rows 256-299 of 300). Work split across ranks or cores (this
/// program writes one of four slices) or an in-place update of a small part is not a tail.
bool isTrailingBand(const Runs& covered, std::int64_t firstGap, std::int64_t missing,
                    std::span<const std::int64_t> shape) {
    const std::vector<std::int64_t> at = unflatten(firstGap, shape);
    std::int64_t total = 1;
    for (const std::int64_t e : shape) {
        total *= std::max<std::int64_t>(e, 1);
    }
    for (std::size_t d = 0; d < shape.size(); ++d) {
        bool innerZero = true;
        for (std::size_t k = d + 1; k < at.size(); ++k) {
            innerZero = innerZero && at[k] == 0;
        }
        const std::int64_t extent = std::max<std::int64_t>(shape[d], 1);
        const std::int64_t band = extent - at[d];
        if (!innerZero || at[d] == 0 || 2 * band >= extent || band * (total / extent) != missing) {
            continue;
        }
        // The count matches; check the band's pieces hold no written element.
        std::int64_t inner = 1;
        for (std::size_t k = d + 1; k < shape.size(); ++k) {
            inner *= std::max<std::int64_t>(shape[k], 1);
        }
        const std::int64_t outer = total / (extent * inner);
        bool clean = true;
        for (std::int64_t o = 0; o < outer && clean && o < 1'000'000; ++o) {
            const std::int64_t lo = o * extent * inner + at[d] * inner;
            const std::int64_t hi = (o + 1) * extent * inner;
            const auto it = std::upper_bound(covered.begin(), covered.end(), lo,
                                             [](std::int64_t v, const auto& r) { return v < r.second; });
            clean = it == covered.end() || it->first >= hi;
        }
        if (clean) {
            return true;
        }
    }
    return false;
}

/// "[256, 0]": the coordinates of a flat index in a row-major shape.
std::string coordinates(std::int64_t flat, std::span<const std::int64_t> shape) {
    return fmt::format("[{}]", fmt::join(unflatten(flat, shape), ", "));
}

/// Sorted runs merged into disjoint ones.
Runs mergedRuns(const Runs& sorted) {
    Runs out;
    for (const auto& [s, e] : sorted) {
        if (!out.empty() && s <= out.back().second) {
            out.back().second = std::max(out.back().second, e);
        } else {
            out.emplace_back(s, e);
        }
    }
    return out;
}

/// What the kernel wrote of each output tensor it creates: the runs of elements, and the instructions.
struct Writes {
    std::vector<Runs> runs;
    std::vector<std::vector<std::uint32_t>> writers;
};

/// Collects the writes of the outputs the kernel creates (an argument it writes is updated in place, a KV cache,
/// often only in part). Nullopt when listing them would pass `budget` runs.
std::optional<Writes> collectWrites(const sim::KernelIr& ir, std::int64_t budget) {
    const auto& buffers = ir.buffers();
    std::vector<bool> eligible(buffers.size(), false);
    for (std::size_t b = 0; b < buffers.size(); ++b) {
        eligible[b] = buffers[b].memory == sim::Memory::Hbm && buffers[b].role == sim::BufferRole::Output &&
                      std::none_of(ir.args.begin(), ir.args.end(),
                                   [&](const sim::KernelArg& a) { return a.name == buffers[b].name; });
    }
    Writes w{std::vector<Runs>(buffers.size()), std::vector<std::vector<std::uint32_t>>(buffers.size())};
    const auto& instructions = ir.instructions();
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        for (const sim::AccessPattern& ap : ir.dsts(instructions[i])) {
            if (ap.buffer >= buffers.size() || !eligible[ap.buffer]) {
                continue;
            }
            if (!appendRuns(ir, ap, w.runs[ap.buffer], budget)) {
                return std::nullopt;
            }
            w.writers[ap.buffer].push_back(i);
        }
    }
    return w;
}

struct Coverage {
    std::int64_t total = 0;
    std::int64_t missing = 0;
    std::int64_t firstGap = -1; ///< flat index of the first unwritten element
    Runs merged;                ///< the written runs, sorted and disjoint
};

Coverage coverageOf(Runs runs, std::span<const std::int64_t> shape) {
    Coverage c;
    c.total = 1;
    for (const std::int64_t d : shape) {
        c.total *= std::max<std::int64_t>(d, 0);
    }
    std::sort(runs.begin(), runs.end());
    std::int64_t covered = 0;
    std::int64_t reach = 0;
    for (auto [s, e] : runs) {
        s = std::clamp<std::int64_t>(s, 0, c.total);
        e = std::clamp<std::int64_t>(e, 0, c.total);
        if (s > reach && c.firstGap < 0) {
            c.firstGap = reach;
        }
        if (e > reach) {
            covered += e - std::max(s, reach);
            reach = e;
        }
    }
    if (reach < c.total && c.firstGap < 0) {
        c.firstGap = reach;
    }
    c.missing = c.total - covered;
    c.merged = mergedRuns(runs);
    return c;
}

/// The CUDA kernel's bound checks, as evidence (none without a CUDA source or checks).
std::optional<EvidenceItem> cudaGuards(const MigrationSource* migration) {
    if (migration == nullptr) {
        return std::nullopt;
    }
    EvidenceItem guards;
    guards.note = "the CUDA kernel checks its bounds here";
    for (const int line : CudaScan(migration->cudaText, migration->cudaKernel).boundGuards()) {
        if (guards.lines.size() < kMaxRanges) {
            guards.lines.push_back({SourceSide::Cuda, migration->cudaFile, line, line});
        }
    }
    return guards.lines.empty() ? std::nullopt : std::optional<EvidenceItem>(std::move(guards));
}

} // namespace

std::span<const std::string_view> TailNotHandledRule::thresholds() const {
    return kThresholds;
}

void TailNotHandledRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const auto writes = collectWrites(in.ir, static_cast<std::int64_t>(settings.value("max_runs")));
    if (!writes) {
        return; // too many pieces to check in reasonable time: say nothing rather than guess
    }
    const auto& buffers = in.ir.buffers();
    for (std::size_t b = 0; b < buffers.size(); ++b) {
        if (writes->runs[b].empty()) {
            continue; // never written here: not a tail problem
        }
        const Coverage c = coverageOf(writes->runs[b], buffers[b].shape);
        if (c.missing <= 0 || !isTrailingBand(c.merged, c.firstGap, c.missing, buffers[b].shape)) {
            continue;
        }
        Finding finding = makeFinding(settings);
        finding.figures = {
            figure("unwritten_elements", static_cast<double>(c.missing), "elements", 0),
            figure("unwritten_pct", pct(static_cast<double>(c.missing), static_cast<double>(c.total)), "%"),
            figure("output_elements", static_cast<double>(c.total), "elements"),
        };
        finding.evidence.push_back(
            in.evidence.item(fmt::format("{} [{}]: {} of {} elements are never written, the first at {}",
                                         buffers[b].name, fmt::join(buffers[b].shape, ", "), c.missing, c.total,
                                         coordinates(c.firstGap, buffers[b].shape)),
                             writes->writers[b]));
        if (auto guards = cudaGuards(in.migration)) {
            finding.evidence.push_back(std::move(*guards));
        }
        finding.suggestion = "Handle the last, partial tile: loop over the ceiling of size / tile and give the last "
                             "iteration a smaller slice (or a mask), or reject such shapes with an assertion that says "
                             "which sizes the kernel supports.";
        out.push_back(std::move(finding));
    }
}

} // namespace kl::core::findings

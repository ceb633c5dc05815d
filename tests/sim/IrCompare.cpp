#include "IrCompare.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>

namespace kl::test {

namespace {

bool sameDims(std::span<const sim::PatternDim> a, std::span<const sim::PatternDim> b) {
    return std::ranges::equal(a, b,
                              [](const auto& x, const auto& y) { return x.stride == y.stride && x.count == y.count; });
}

bool sameOperands(const sim::KernelIr& a, sim::OperandList x, const sim::KernelIr& b, sim::OperandList y) {
    if (x.size() != y.size()) {
        return false;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        const auto& p = x[i];
        const auto& q = y[i];
        if (p.buffer != q.buffer || p.offset != q.offset || p.partStart != q.partStart || p.partCount != q.partCount ||
            p.dtype != q.dtype || !sameDims(a.pattern(p), b.pattern(q))) {
            return false;
        }
    }
    return true;
}

bool sameAttrs(const sim::InstrAttrs& x, const sim::InstrAttrs& y) {
    return x.movingFree == y.movingFree && x.stationaryFree == y.stationaryFree && x.contraction == y.contraction &&
           x.dtypeIn == y.dtypeIn && x.op0 == y.op0 && x.op1 == y.op1 && x.isa == y.isa &&
           x.accumulate == y.accumulate && x.isTranspose == y.isTranspose && x.zeroFill == y.zeroFill;
}

bool sameLocs(std::span<const sim::SourceLoc> x, std::span<const sim::SourceLoc> y) {
    return std::ranges::equal(x, y, [](const auto& p, const auto& q) { return p.file == q.file && p.line == q.line; });
}

std::optional<std::string> headerDifference(const sim::KernelIr& a, const sim::KernelIr& b) {
    if (a.kernelName != b.kernelName || a.api != b.api || a.grid != b.grid || a.files != b.files) {
        return "kernel name, api, grid or files differ";
    }
    if (a.args.size() != b.args.size() || a.diagnostics.size() != b.diagnostics.size()) {
        return "argument or diagnostic counts differ";
    }
    for (std::size_t i = 0; i < a.args.size(); ++i) {
        if (a.args[i].name != b.args[i].name || a.args[i].shape != b.args[i].shape ||
            a.args[i].dtype != b.args[i].dtype) {
            return fmt::format("argument {} differs", i);
        }
    }
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
        const auto& x = a.diagnostics[i];
        const auto& y = b.diagnostics[i];
        if (x.severity != y.severity || x.message != y.message || x.loc.file != y.loc.file ||
            x.loc.line != y.loc.line) {
            return fmt::format("diagnostic {} differs", i);
        }
    }
    if (a.buffers().size() != b.buffers().size()) {
        return fmt::format("{} buffers vs {}", a.buffers().size(), b.buffers().size());
    }
    for (std::size_t i = 0; i < a.buffers().size(); ++i) {
        const auto x = a.buffers()[i];
        const auto y = b.buffers()[i];
        if (x.name != y.name || !std::ranges::equal(x.shape, y.shape) || x.memory != y.memory || x.dtype != y.dtype ||
            x.role != y.role || x.dtypeBytes != y.dtypeBytes || x.decl.file != y.decl.file ||
            x.decl.line != y.decl.line) {
            return fmt::format("buffer {} ('{}') differs", i, x.name);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> firstDifference(const sim::KernelIr& a, const sim::KernelIr& b) {
    if (auto header = headerDifference(a, b)) {
        return header;
    }
    if (a.instructions().size() != b.instructions().size()) {
        return fmt::format("{} instructions vs {}", a.instructions().size(), b.instructions().size());
    }
    for (std::size_t i = 0; i < a.instructions().size(); ++i) {
        const auto& x = a.instructions()[i];
        const auto& y = b.instructions()[i];
        const bool same = a.id(i) == b.id(i) && x.op == y.op && x.engine == y.engine && x.elements == y.elements &&
                          x.bytes == y.bytes && sameAttrs(a.attrs(x), b.attrs(y)) &&
                          sameOperands(a, a.dsts(x), b, b.dsts(y)) && sameOperands(a, a.srcs(x), b, b.srcs(y)) &&
                          sameLocs(a.locs(x), b.locs(y)) && std::ranges::equal(a.iter(x), b.iter(y)) &&
                          std::ranges::equal(a.pid(x), b.pid(y));
        if (!same) {
            return fmt::format("instruction #{} (id {}) differs", i, a.id(i));
        }
    }
    return std::nullopt;
}

} // namespace kl::test

#include "ir/IrChecks.h"

#include "common/JsonRead.h"
#include "ir/IrLimits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kl::sim::ir_checks {

namespace {

namespace lim = ir_limits;
using Json = nlohmann::json;

/// a * b, or nothing when it leaves [0, limit] (both are non-negative).
std::optional<std::int64_t> checkedProduct(std::int64_t a, std::int64_t b, std::int64_t limit) {
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out) || out > limit) {
        return std::nullopt;
    }
    return out;
}

/// An optional integer field: the fallback when absent, nothing (with `error` set) when out of range.
std::optional<std::int64_t> intField(const Json& j, const char* key, std::int64_t hi, std::string& error) {
    const auto it = j.find(key);
    if (it == j.end()) {
        return 0;
    }
    if (const auto n = kl::json::integerIn(*it, 0, hi)) {
        return n;
    }
    error = kl::json::mismatch(key, kl::json::integerRange(0, hi), *it);
    return std::nullopt;
}

std::optional<bool> boolField(const Json& j, const char* key, std::string& error) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        return false;
    }
    if (!it->is_boolean()) {
        error = kl::json::mismatch(key, "true or false", *it);
        return std::nullopt;
    }
    return it->get<bool>();
}

} // namespace

std::optional<std::string> patternProblem(std::int64_t offset, std::span<const PatternDim> dims) {
    std::int64_t count = 1;
    std::int64_t lo = offset;
    std::int64_t hi = offset;
    for (const PatternDim& d : dims) {
        std::int64_t span = 0;
        const auto n = checkedProduct(count, d.count, lim::kMaxSize);
        if (!n || __builtin_mul_overflow(d.stride, std::max<std::int64_t>(d.count - 1, 0), &span)) {
            return "pattern: more than 2^40 elements, or an extent past 2^48 elements";
        }
        count = *n;
        (span < 0 ? lo : hi) += span;
        if (lo < -lim::kMaxExtent || hi > lim::kMaxExtent) {
            return "pattern: the accessed elements reach past 2^48 from the buffer's start";
        }
    }
    return std::nullopt;
}

std::optional<std::string> bufferProblem(std::int64_t id, const Buffer& b) {
    if (b.memory != Memory::Hbm && (b.shape.empty() || b.shape[0] < 1 || b.shape[0] > lim::kMaxPartitions)) {
        return fmt::format("buffer {} ('{}'): on-chip partition dimension must be 1..128", id, b.name);
    }
    std::optional<std::int64_t> bytes = b.dtypeBytes;
    for (std::size_t i = b.memory == Memory::Hbm ? 0 : 1; i < b.shape.size() && bytes; ++i) {
        bytes = checkedProduct(*bytes, b.shape[i], lim::kMaxSize);
    }
    if (!bytes) {
        return fmt::format("buffer {} ('{}'): more than 2^40 bytes{}", id, b.name,
                           b.memory == Memory::Hbm ? "" : " per partition");
    }
    return std::nullopt;
}

std::expected<InstrAttrs, std::string> readAttrs(const Json& a) {
    InstrAttrs attrs;
    std::string error;
    const auto moving = intField(a, "moving_free", lim::kMaxTileSize, error);
    const auto stationary = moving ? intField(a, "stationary_free", lim::kMaxTileSize, error) : std::nullopt;
    const auto contraction = stationary ? intField(a, "contraction", lim::kMaxTileSize, error) : std::nullopt;
    const auto accumulate = contraction ? boolField(a, "accumulate", error) : std::nullopt;
    const auto transpose = accumulate ? boolField(a, "is_transpose", error) : std::nullopt;
    if (!transpose) {
        return std::unexpected(error);
    }
    attrs.movingFree = static_cast<std::uint32_t>(*moving);
    attrs.stationaryFree = static_cast<std::uint32_t>(*stationary);
    attrs.contraction = static_cast<std::uint32_t>(*contraction);
    attrs.accumulate = *accumulate;
    attrs.isTranspose = *transpose;
    if (const auto it = a.find("dtype_in"); it != a.end() && it->is_string()) {
        attrs.dtypeIn = parseDType(it->get<std::string>());
    }
    if (const auto it = a.find("op0"); it != a.end() && it->is_string()) {
        attrs.op0 = parseAluOp(it->get<std::string>());
    }
    if (const auto it = a.find("op1"); it != a.end() && it->is_string()) {
        attrs.op1 = parseAluOp(it->get<std::string>());
    }
    if (const auto it = a.find("isa"); it != a.end() && it->is_string()) {
        attrs.isa = parseIsaCall(it->get<std::string>());
    }
    // memset of zero has its own documented cost; "value" may also be a string ("nan", "inf") or absent.
    if (const auto it = a.find("value"); it != a.end() && it->is_number()) {
        attrs.zeroFill = it->get<double>() == 0.0;
    }
    return attrs;
}

std::string unknownOpWarning(std::string_view op, int count) {
    return fmt::format("op {} ({} instructions) is not known to the simulator; costed as an element-wise op",
                       kl::json::inQuotes(op), count);
}

} // namespace kl::sim::ir_checks

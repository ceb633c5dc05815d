#include "common/JsonRead.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <limits>

namespace kl::json {

namespace {

constexpr std::size_t kMaxQuoted = 40; ///< characters of a string value quoted in a message

/// 2^63 as a double: every finite double below it converts to std::int64_t without overflow.
constexpr double kTwoTo63 = 9223372036854775808.0;

std::string bound(std::int64_t v) {
    const std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    if (magnitude >= (std::uint64_t{1} << 20) && std::has_single_bit(magnitude)) {
        return fmt::format("{}2^{}", v < 0 ? "-" : "", std::countr_zero(magnitude));
    }
    return fmt::format("{}", v);
}

} // namespace

std::optional<std::int64_t> integerIn(const Json& v, std::int64_t lo, std::int64_t hi) {
    std::int64_t value = 0;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return std::nullopt;
        }
        value = static_cast<std::int64_t>(u);
    } else if (v.is_number_integer()) {
        value = v.get<std::int64_t>();
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || d >= kTwoTo63 || d < -kTwoTo63) {
            return std::nullopt;
        }
        value = static_cast<std::int64_t>(d);
    } else {
        return std::nullopt;
    }
    if (value < lo || value > hi) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> numberIn(const Json& v, double lo, double hi) {
    if (!v.is_number()) {
        return std::nullopt;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || d > hi) {
        return std::nullopt;
    }
    return d;
}

std::optional<std::string> stringOf(const Json& v, bool nonEmpty) {
    if (!v.is_string()) {
        return std::nullopt;
    }
    const auto& s = v.get_ref<const std::string&>();
    if (nonEmpty && s.empty()) {
        return std::nullopt;
    }
    return s;
}

std::string inQuotes(std::string_view text) {
    // dump() escapes control characters; `replace` copes with invalid UTF-8 and a cut through a sequence.
    const Json shortened = std::string(text.substr(0, kMaxQuoted));
    return shortened.dump(-1, ' ', false, Json::error_handler_t::replace) + (text.size() > kMaxQuoted ? "..." : "");
}

std::string describe(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer: return fmt::format("the number {}", v.get<std::int64_t>());
    case Json::value_t::number_unsigned: return fmt::format("the number {}", v.get<std::uint64_t>());
    case Json::value_t::number_float: return fmt::format("the number {}", v.get<double>());
    case Json::value_t::string: return "the string " + inQuotes(v.get_ref<const std::string&>());
    case Json::value_t::array: return fmt::format("an array of {} element(s)", v.size());
    case Json::value_t::object: return "an object";
    case Json::value_t::binary: return "binary data";
    case Json::value_t::discarded: break;
    }
    return "nothing";
}

std::string mismatch(std::string_view path, std::string_view what, const Json& v) {
    return fmt::format("{}: expected {}, found {}", path, what, describe(v));
}

std::string integerRange(std::int64_t lo, std::int64_t hi) {
    return fmt::format("an integer from {} to {}", bound(lo), bound(hi));
}

std::string numberRange(double lo, double hi) {
    return fmt::format("a number from {} to {}", lo, hi);
}

} // namespace kl::json

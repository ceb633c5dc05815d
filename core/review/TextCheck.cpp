#include "review/TextCheck.h"

#include <fmt/format.h>

#include <chrono>
#include <ctime>

namespace kl::core {

bool isValidUtf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + len > n) {
            return false;
        }
        for (std::size_t k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        // Overlong forms, surrogates and code points past U+10FFFF are not valid UTF-8.
        const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            return false;
        }
        i += len;
    }
    return true;
}

Expected<void> checkText(std::string_view text, std::string_view field, bool allowEmpty) {
    if (!allowEmpty && text.empty()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("{} must not be empty", field));
    }
    if (text.size() > kMaxTextBytes) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("{} is {} bytes; the limit is {} bytes", field, text.size(), kMaxTextBytes));
    }
    if (text.find('\0') != std::string_view::npos) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("{} contains a NUL character", field));
    }
    if (!isValidUtf8(text)) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("{} is not valid UTF-8", field), std::string(), 0,
                         "save the text as UTF-8");
    }
    return {};
}

std::string utcNow() {
    using namespace std::chrono;
    const auto now = system_clock::now();
    const auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
    const std::time_t seconds = system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                       tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}

} // namespace kl::core

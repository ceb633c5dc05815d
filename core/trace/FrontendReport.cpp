#include "trace/FrontendReport.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace kl::core {
namespace {

ErrorCode codeFromName(const std::string& name) {
    static const std::pair<const char*, ErrorCode> kCodes[] = {
        {"invalid_argument", ErrorCode::InvalidArgument},
        {"not_found", ErrorCode::NotFound},
        {"parse", ErrorCode::Parse},
        {"unsupported", ErrorCode::Unsupported},
        {"kernel_error", ErrorCode::KernelError},
        {"timeout", ErrorCode::Timeout},
        {"io", ErrorCode::Io},
        {"cancelled", ErrorCode::Cancelled},
    };
    for (const auto& [text, code] : kCodes) {
        if (name == text) {
            return code;
        }
    }
    return ErrorCode::Internal;
}

std::string text(const nlohmann::json& object, const char* key, const char* fallback = "") {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string(fallback);
}

Error errorFrom(const nlohmann::json& e) {
    Error error;
    error.code = codeFromName(text(e, "code", "internal"));
    error.message = text(e, "message", "the kernel could not be traced");
    error.file = text(e, "file");
    const auto line = e.find("line");
    error.line = line != e.end() && line->is_number_integer() && line->get<long long>() > 0 &&
                         line->get<long long>() < (1LL << 31)
                     ? static_cast<int>(line->get<long long>())
                     : 0;
    error.hint = text(e, "hint");
    return error;
}

} // namespace

std::optional<FrontendReport> parseFrontendReport(const std::string& reportText, const std::string& nonce) {
    if (nonce.empty()) {
        return std::nullopt;
    }
    std::optional<FrontendReport> last;
    std::istringstream lines(reportText);
    for (std::string line; std::getline(lines, line);) {
        const auto doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!doc.is_object() || text(doc, "nonce") != nonce) {
            continue;
        }
        FrontendReport report;
        if (const auto e = doc.find("error"); e != doc.end() && e->is_object()) {
            report.error = errorFrom(*e);
        } else if (const auto d = doc.find("done"); d != doc.end() && d->is_object()) {
            const auto bytes = d->find("bytes");
            if (bytes == d->end() || !bytes->is_number_unsigned()) {
                continue;
            }
            report.done = true;
            report.bytes = bytes->get<std::uint64_t>();
        } else {
            continue;
        }
        last = report;
    }
    return last;
}

} // namespace kl::core

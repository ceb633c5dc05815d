#include "common/Error.h"

#include <fmt/format.h>

namespace kl {

std::string formatError(const Error& error) {
    std::string out;
    if (!error.file.empty()) {
        out = error.line > 0 ? fmt::format("{}:{}: ", error.file, error.line) : fmt::format("{}: ", error.file);
    }
    out += "error: " + error.message;
    if (!error.hint.empty()) {
        out += fmt::format("\n  hint: {}", error.hint);
    }
    return out;
}

const char* errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::InvalidArgument: return "invalid_argument";
    case ErrorCode::NotFound: return "not_found";
    case ErrorCode::Parse: return "parse";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::KernelError: return "kernel_error";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Io: return "io";
    case ErrorCode::Database: return "database";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::SandboxUnavailable: return "sandbox_unavailable";
    case ErrorCode::Internal: return "internal";
    }
    return "internal";
}

} // namespace kl

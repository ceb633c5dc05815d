#pragma once

#include <expected>
#include <string>

namespace kl {

/// Kinds of failure a user can meet. Codes are stable: they appear in JSON error objects and tests.
enum class ErrorCode {
    InvalidArgument,    ///< a command-line flag or API argument is malformed
    NotFound,           ///< a file, kernel function or task is missing
    Parse,              ///< a file could not be parsed (JSON, IR, profile, rubric, review)
    Unsupported,        ///< valid input that KernelLens does not handle (an NKI call, an IR version)
    KernelError,        ///< the kernel itself raised, or broke a hardware rule the compiler checks
    Timeout,            ///< a subprocess or a simulation exceeded its time limit
    Io,                 ///< reading or writing a file failed
    Database,           ///< SQLite refused an operation
    Cancelled,          ///< the user cancelled; never shown as a failure
    SandboxUnavailable, ///< the OS sandbox a kernel must run in cannot be set up here (core/trace/Sandbox.h)
    Internal,           ///< a bug in KernelLens; the message says what to report
};

/// A failure meant for people: what went wrong, where (when known), and what to do about it.
struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
    std::string file; ///< the file the problem is in, empty when not about a file
    int line = 0;     ///< 1-based line in `file`, 0 when unknown
    std::string hint; ///< what the user can do, empty when there is nothing to add
};

template <typename T> using Expected = std::expected<T, Error>;

[[nodiscard]] inline std::unexpected<Error> makeError(ErrorCode code, std::string message, std::string file = {},
                                                      int line = 0, std::string hint = {}) {
    return std::unexpected(Error{code, std::move(message), std::move(file), line, std::move(hint)});
}

/// "file:line: message (hint)" in the style compilers use, so editors can jump to it.
[[nodiscard]] std::string formatError(const Error& error);

[[nodiscard]] const char* errorCodeName(ErrorCode code);

} // namespace kl

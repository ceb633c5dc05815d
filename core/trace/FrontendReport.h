#pragma once

#include "common/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kl::core {

/// The front end's last word on a run, read from its report channel.
struct FrontendReport {
    std::optional<Error> error; ///< `{"nonce", "error": {code, message, file, line, hint}}`
    bool done = false;          ///< `{"nonce", "done": {"bytes": N}}`: the output holds N bytes of result
    std::uint64_t bytes = 0;
};

/// Finds the last line of `reportText` that is a JSON object carrying `nonce` and reads it; anything else on
/// the channel (a kernel writing to descriptors it should not) is ignored. nullopt when there is no such line.
[[nodiscard]] std::optional<FrontendReport> parseFrontendReport(const std::string& reportText,
                                                                const std::string& nonce);

} // namespace kl::core

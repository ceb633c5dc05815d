#pragma once

#include "common/Error.h"
#include "trace/TraceRunner.h"

#include <string>
#include <vector>

namespace kl::app {

/// Flags shared by `trace` and `simulate`: what to run and with which arguments. Flags a command does not
/// know are returned in `rest` for it to handle.
struct TraceArguments {
    core::TraceRequest request;
    std::vector<std::string> rest;
};

/// Parses the input flags. `--help` comes back as an Error with code Cancelled so callers print usage.
[[nodiscard]] Expected<TraceArguments> parseTraceArguments(const std::vector<std::string>& args, bool requireOutput);

} // namespace kl::app

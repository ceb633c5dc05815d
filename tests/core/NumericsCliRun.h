#pragma once

#include "cli/Commands.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kl::core::test {

/// `kernellens-cli numerics ARGS` run in this process: its exit code and what it printed.
struct NumericsCliResult {
    int code;
    std::string out;
    std::string err;
};

inline NumericsCliResult runNumericsCli(const std::vector<std::string>& args) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = kl::app::runNumericsCommand(args);
    std::string out = ::testing::internal::GetCapturedStdout();
    std::string err = ::testing::internal::GetCapturedStderr();
    return {code, out, err};
}

} // namespace kl::core::test

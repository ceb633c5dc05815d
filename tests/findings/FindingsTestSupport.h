#pragma once

#include "findings/Finding.h"
#include "findings/FindingsEngine.h"
#include "run/RunPipeline.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kl::core::findings::test {

/// tests/findings/kernels
[[nodiscard]] std::string kernelsDir();

/// A traced, simulated kernel and its findings with the bundled rules.
struct Analysed {
    RunOutcome run;
    std::vector<Finding> findings;

    [[nodiscard]] const Finding* find(std::string_view rule) const;
    [[nodiscard]] bool has(std::string_view rule) const { return find(rule) != nullptr; }
    /// "rule(severity) ..." for failure messages.
    [[nodiscard]] std::string summary() const;
};

/// Traces `file` (a kernel file or a task folder; relative to kernelsDir() unless absolute) with `kernel` and
/// `args` (NAME=SHAPE:DTYPE) on `hardware`, and runs the bundled rules. A task folder also gives the migration
/// rules its CUDA side. Fails the test (and returns nullopt) when the kernel does not run.
[[nodiscard]] std::optional<Analysed> analyse(const std::string& file, const std::string& kernel = {},
                                              const std::vector<std::string>& args = {},
                                              const std::string& hardware = "trn2");

} // namespace kl::core::findings::test

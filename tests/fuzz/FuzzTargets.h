#pragma once

#include "FuzzHarness.h"

#include "common/Error.h"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kl::fuzz {

/// One fuzzed file format: its seeds live in tests/fuzz/corpus/<name>/, regressions in tests/fuzz/regressions/<name>/.
struct Format {
    const char* name;
    const char* extension; ///< of saved failing inputs
    bool json;             ///< JSON-aware mutations apply
    const char* what;
};

/// ir, irbin, profile, task, rubric, lesson, review.
[[nodiscard]] std::span<const Format> formats();
[[nodiscard]] const Format* findFormat(std::string_view name);

/// Feeds one input to a format's loader the way KernelLens does, and on success goes on as the application would:
/// an IR is simulated on trn1 and its result written as JSON and text; a profile simulates a seed IR; a task
/// folder is loaded (task.json in a scratch folder); a rubric gives a scorecard; a lesson renders its steps and
/// applies its what-ifs; a review file is opened (a scratch copy) and every repository read, then a report
/// built from it. Returns the loader's (or the simulation's) error, or nothing when everything worked. The
/// inputs a target needs besides the case (trn1, a seed IR, the examples) are read once, at construction.
class FormatRunner {
public:
    FormatRunner(const Format& format, std::filesystem::path scratch);

    [[nodiscard]] std::optional<Error> feed(std::string_view input) const;
    /// feed() as a harness target (the outcome is dropped: only crashes, hangs and exceptions count).
    [[nodiscard]] Target target() const;

private:
    std::optional<Error> feedReview(std::string_view input) const;

    const Format& m_format;
    std::filesystem::path m_scratch;
};

/// The files of tests/fuzz/<kind>/<format> (kind "corpus" or "regressions"), sorted by name, read whole.
[[nodiscard]] std::vector<std::pair<std::filesystem::path, std::string>> readFiles(std::string_view kind,
                                                                                   std::string_view format);

} // namespace kl::fuzz

#pragma once

#include "FuzzMutator.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kl::fuzz {

/// A fuzz target: feeds one input to a loader (and what follows it). It must return normally for every input;
/// a crash (a signal), a hang (past the per-case budget) or an exception leaving it is a failure.
using Target = std::function<void(std::string_view input)>;

struct RunOptions {
    std::uint64_t seed = 1;
    std::uint64_t firstCase = 0;
    std::uint64_t cases = 1000;             ///< stop after this many cases ...
    double seconds = 0;                     ///< ... or, when > 0, after this long (whichever comes first)
    unsigned caseSeconds = 10;              ///< per-case budget: an alarm in the child
    std::uint64_t batch = 250;              ///< cases per forked child
    std::uint64_t memoryBytes = 4ULL << 30; ///< RLIMIT_AS of the child: a runaway allocation fails, not the host
    std::uint64_t stackBytes = 2ULL << 20;  ///< RLIMIT_STACK of the child
    std::filesystem::path failureDir;       ///< failing inputs are written here as case-N<extension>
    std::string extension = ".json";
};

struct Failure {
    std::uint64_t caseIndex = 0;
    std::string what; ///< "crash: signal 11 (Segmentation fault)", "hang: over 10 s", "exception: ..."
    std::filesystem::path savedInput;
};

struct RunReport {
    std::uint64_t cases = 0;
    std::vector<Failure> failures;
};

/// Runs cases `firstCase`, `firstCase + 1`, ... of `seeds` mutated by `mutator` through `target`. Each batch
/// runs in a forked child: the target runs in-process there, so a crash or a hang ends only the child; the
/// parent reads from shared memory which case was running, saves its input (makeCase regenerates it), records
/// the failure and goes on with the next case. Deterministic: the same options give the same cases.
[[nodiscard]] RunReport runFuzz(const Target& target, const std::vector<std::string>& seeds, const Mutator& mutator,
                                const RunOptions& options);

/// Runs `target` on one input in a forked child with the same guards; empty when it passed, else what failed.
[[nodiscard]] std::string runGuarded(const Target& target, std::string_view input, unsigned caseSeconds = 10);

} // namespace kl::fuzz

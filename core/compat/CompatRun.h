#pragma once

#include "compat/CompatTypes.h"

#include <functional>

namespace kl::core {

/// Runs one compat job: traces the kernel in the sandboxed front end and simulates it on the job's profile
/// (resolved against the settings' bases). Never fails as a function: every outcome is a CompatResult.
///  * simulated   - traced and simulated; instructions and simulated time are set;
///  * traced-only - the front end traced it, but the IR did not load or the simulator rejected it;
///  * failed      - the front end (or the kernel itself) failed, or the profile was not found;
///  * skipped     - the job was skipped before running (its reason is kept).
[[nodiscard]] CompatResult runCompatJob(const CompatJob& job, const CompatSettings& settings,
                                        const std::function<bool()>& shouldCancel = {});

} // namespace kl::core

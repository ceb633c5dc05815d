#include "compat/CompatTypes.h"

namespace kl::core {

const char* compatStatusName(CompatStatus status) {
    switch (status) {
    case CompatStatus::Simulated: return "simulated";
    case CompatStatus::TracedOnly: return "traced-only";
    case CompatStatus::Failed: return "failed";
    case CompatStatus::Skipped: return "skipped";
    }
    return "failed";
}

CompatSummary CompatSummary::of(const std::vector<CompatResult>& results) {
    CompatSummary s;
    s.total = results.size();
    for (const CompatResult& r : results) {
        switch (r.status) {
        case CompatStatus::Simulated: ++s.simulated; break;
        case CompatStatus::TracedOnly: ++s.tracedOnly; break;
        case CompatStatus::Failed: ++s.failed; break;
        case CompatStatus::Skipped: ++s.skipped; break;
        }
    }
    return s;
}

} // namespace kl::core

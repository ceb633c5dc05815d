#include "findings/FindingDecisions.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kl::core::findings {

std::vector<std::string> findingKeys(const std::vector<Finding>& findings) {
    std::map<std::string, int, std::less<>> seen;
    std::vector<std::string> keys;
    keys.reserve(findings.size());
    for (const Finding& f : findings) {
        const int n = ++seen[f.rule];
        keys.push_back(n == 1 ? f.rule : fmt::format("{}#{}", f.rule, n));
    }
    return keys;
}

std::optional<std::int64_t> acceptingAnnotation(const Finding& finding, const std::vector<Annotation>& annotations) {
    const std::string exact = fmt::format("{} ({})", finding.title, finding.rule);
    const std::string marker = fmt::format(" ({})", finding.rule);
    for (const Annotation& a : annotations) {
        if (a.text.starts_with(exact)) {
            return a.id;
        }
    }
    for (const Annotation& a : annotations) {
        // Only the first sentence (the heading annotationText writes) counts: a reviewer's own note that mentions
        // a rule further on is not an Accept.
        const std::size_t at = a.text.find(marker);
        const bool inHeading = at != std::string::npos && a.text.substr(0, at).find(". ") == std::string::npos;
        if (a.rubricItem == finding.rubricItem && inHeading) {
            return a.id;
        }
    }
    return std::nullopt;
}

std::vector<FindingDecision> decisionsFor(const std::vector<Finding>& findings,
                                          const std::vector<Annotation>& annotations,
                                          const std::vector<FindingDismissal>& dismissals) {
    const std::vector<std::string> keys = findingKeys(findings);
    std::vector<FindingDecision> out;
    out.reserve(findings.size());
    for (std::size_t i = 0; i < findings.size(); ++i) {
        FindingDecision d{keys[i], acceptingAnnotation(findings[i], annotations), std::nullopt};
        auto it = std::find_if(dismissals.begin(), dismissals.end(),
                               [&](const FindingDismissal& x) { return x.findingKey == keys[i]; });
        if (it != dismissals.end()) {
            d.dismissal = *it;
        }
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace kl::core::findings

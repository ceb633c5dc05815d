#pragma once

#include "findings/Finding.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// How a reviewer's decisions on findings are found again in a review file: a finding has no id of its own (it is
// recomputed from every run), so a dismissal names it by key and an accepted one is recognised by the annotation
// its Accept wrote. Shared by the Findings dock and the reports, so both agree on what was decided.
namespace kl::core::findings {

/// Keys of `findings`, in their order: the rule id, with "#2", "#3" ... for a rule's second and later findings
/// ("exposed-dma", "redundant-loads#2"). Stable across runs of the same kernel, unlike titles, which hold figures.
[[nodiscard]] std::vector<std::string> findingKeys(const std::vector<Finding>& findings);

/// The annotation that accepting `finding` wrote, if the task has one: its text starts with the finding's title
/// and rule ("Roofline: ... (roofline)"), else (figures changed since) it names the rule in the same words and
/// is filed under the same rubric item.
[[nodiscard]] std::optional<std::int64_t> acceptingAnnotation(const Finding& finding,
                                                              const std::vector<Annotation>& annotations);

/// What became of each finding of a task: accepted (the annotation id), dismissed (the reason), or still open.
struct FindingDecision {
    std::string key;
    std::optional<std::int64_t> acceptedAs;
    std::optional<FindingDismissal> dismissal;
};

[[nodiscard]] std::vector<FindingDecision> decisionsFor(const std::vector<Finding>& findings,
                                                        const std::vector<Annotation>& annotations,
                                                        const std::vector<FindingDismissal>& dismissals);

} // namespace kl::core::findings

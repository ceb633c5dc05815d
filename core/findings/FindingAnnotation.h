#pragma once

#include "findings/Finding.h"
#include "result/SimResult.h"
#include "review/ReviewTypes.h"

#include <string>
#include <string_view>
#include <vector>

namespace kl::core::findings {

/// What accepting a finding (a Findings dock's Accept) writes to the review file: an annotation pre-filled with the
/// finding's rubric item, severity and text, anchored where its evidence points. `anchors` lists every anchor the
/// evidence gives, the annotation's own first (NKI lines of the task's kernel file, else a time range, else CUDA
/// lines, else an instruction); a dock may offer the others. Task id and author are the caller's.
struct AnnotationDraft {
    Annotation annotation;
    std::vector<Anchor> anchors;
};

/// `nkiFile` is the task's kernel file as named in the IR (MigrationSource::nkiFile): review anchors on NKI lines
/// refer to that file, so lines of other files of a package are left out. `timeline` turns program-order indices
/// into IR ids.
[[nodiscard]] AnnotationDraft annotationDraft(const Finding& finding, const sim::TimelineData& timeline,
                                              std::string_view nkiFile);

/// "Small DMA transfers (dma-small-transfers): median_bytes_per_partition 1024 B (threshold 2048 B), ... Move at
/// least 2.00 KiB per partition ...": title, the figures held against thresholds, the suggestion.
[[nodiscard]] std::string annotationText(const Finding& finding);

} // namespace kl::core::findings

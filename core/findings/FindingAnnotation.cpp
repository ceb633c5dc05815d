#include "findings/FindingAnnotation.h"

#include <fmt/format.h>

#include <algorithm>

namespace kl::core::findings {

namespace {

void addUnique(std::vector<Anchor>& anchors, const Anchor& a) {
    if (std::find(anchors.begin(), anchors.end(), a) == anchors.end()) {
        anchors.push_back(a);
    }
}

} // namespace

std::string annotationText(const Finding& finding) {
    std::string text = fmt::format("{} ({})", finding.title, finding.rule);
    std::string figures;
    for (const Figure& f : finding.figures) {
        if (!f.threshold) {
            continue;
        }
        figures += fmt::format("{}{} {:g}{}{} (threshold {:g}{}{})", figures.empty() ? "" : ", ", f.name, f.value,
                               f.unit.empty() ? "" : " ", f.unit, *f.threshold, f.unit.empty() ? "" : " ", f.unit);
    }
    if (!figures.empty()) {
        text += ": " + figures;
    }
    return text + ". " + finding.suggestion;
}

AnnotationDraft annotationDraft(const Finding& finding, const sim::TimelineData& timeline, std::string_view nkiFile) {
    std::vector<Anchor> nki;
    std::vector<Anchor> times;
    std::vector<Anchor> cuda;
    std::vector<Anchor> instructions;
    for (const EvidenceItem& e : finding.evidence) {
        for (const SourceRange& l : e.lines) {
            if (l.side == SourceSide::Nki && l.file == nkiFile) {
                addUnique(nki, Anchor::nkiLines(l.firstLine, l.lastLine));
            } else if (l.side == SourceSide::Cuda) {
                addUnique(cuda, Anchor::cudaLines(l.firstLine, l.lastLine));
            }
        }
        for (const TimeRange& t : e.times) {
            // Review anchors hold whole nanoseconds, both ends inclusive.
            addUnique(times, Anchor::timeRange(t.startPs / 1000, std::max(t.startPs, t.endPs - 1) / 1000));
        }
        for (const InstructionRange& r : e.instructions) {
            if (r.first < timeline.size()) {
                addUnique(instructions, Anchor::instruction(timeline.irId(r.first)));
            }
        }
    }
    AnnotationDraft draft;
    for (const auto* group : {&nki, &times, &cuda, &instructions}) {
        draft.anchors.insert(draft.anchors.end(), group->begin(), group->end());
    }
    draft.annotation.rubricItem = finding.rubricItem;
    draft.annotation.severity = finding.severity;
    draft.annotation.text = annotationText(finding);
    if (!draft.anchors.empty()) {
        draft.annotation.anchor = draft.anchors.front();
    }
    return draft;
}

} // namespace kl::core::findings

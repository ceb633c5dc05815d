#include "team/AnnotationOverlap.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace kl::core::team {
namespace {

double intervalIou(std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1) {
    // Inclusive ranges: a single line or nanosecond has length 1, so a point flag on a line still overlaps.
    const std::int64_t inter = std::min(a1, b1) - std::max(a0, b0) + 1;
    if (inter <= 0) {
        return 0.0;
    }
    const std::int64_t uni = std::max(a1, b1) - std::min(a0, b0) + 1;
    return static_cast<double>(inter) / static_cast<double>(uni);
}

struct Candidate {
    double overlap;
    std::size_t a, b;
};

/// Greedy one-to-one matching, best overlap first; marks the matched ones.
void matchPair(const std::vector<const Annotation*>& mine, const std::vector<const Annotation*>& theirs,
               std::set<const Annotation*>& confirmed, std::size_t& found) {
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        for (std::size_t j = 0; j < theirs.size(); ++j) {
            if (const double o = anchorOverlap(mine[i]->anchor, theirs[j]->anchor); o > 0.0) {
                candidates.push_back({o, i, j});
            }
        }
    }
    // Ties broken by position so the result does not depend on the sort's stability.
    std::ranges::sort(candidates, [](const Candidate& x, const Candidate& y) {
        return std::tie(y.overlap, x.a, x.b) < std::tie(x.overlap, y.a, y.b);
    });
    std::vector<bool> usedA(mine.size()), usedB(theirs.size());
    for (const Candidate& c : candidates) {
        if (usedA[c.a] || usedB[c.b]) {
            continue;
        }
        usedA[c.a] = usedB[c.b] = true;
        confirmed.insert(mine[c.a]);
        ++found;
    }
}

} // namespace

double ReviewerOverlap::precision() const {
    return annotations == 0 ? -1.0 : static_cast<double>(confirmed) / static_cast<double>(annotations);
}

double ReviewerOverlap::recall() const {
    return othersAnnotations == 0 ? -1.0 : static_cast<double>(found) / static_cast<double>(othersAnnotations);
}

double anchorOverlap(const Anchor& a, const Anchor& b) {
    if (a.kind != b.kind) {
        return 0.0;
    }
    switch (a.kind) {
    case AnchorKind::TimeRange: return intervalIou(a.t0Ns, a.t1Ns, b.t0Ns, b.t1Ns);
    case AnchorKind::Instruction: return a.instructionId == b.instructionId ? 1.0 : 0.0;
    case AnchorKind::NkiLines:
    case AnchorKind::CudaLines: return intervalIou(a.firstLine, a.lastLine, b.firstLine, b.lastLine);
    }
    return 0.0;
}

std::vector<ReviewerOverlap> annotationOverlap(const std::vector<Annotation>& annotations) {
    // task -> reviewer -> their annotations on it
    std::map<std::int64_t, std::map<std::string, std::vector<const Annotation*>>> byTask;
    std::map<std::string, ReviewerOverlap> out;
    for (const Annotation& a : annotations) {
        byTask[a.taskId][a.author].push_back(&a);
        out[a.author].reviewer = a.author;
        ++out[a.author].annotations;
    }
    for (auto& [name, r] : out) {
        r.othersAnnotations = annotations.size() - r.annotations;
    }
    std::set<const Annotation*> confirmed;
    for (const auto& [task, reviewers] : byTask) {
        for (const auto& [me, mine] : reviewers) {
            for (const auto& [other, theirs] : reviewers) {
                if (me != other) {
                    matchPair(mine, theirs, confirmed, out[me].found);
                }
            }
        }
    }
    std::vector<ReviewerOverlap> result;
    for (auto& [name, r] : out) {
        r.confirmed = static_cast<std::size_t>(
            std::ranges::count_if(confirmed, [&](const Annotation* a) { return a->author == name; }));
        result.push_back(r);
    }
    return result;
}

} // namespace kl::core::team

#pragma once

#include "review/ReviewTypes.h"

#include <string>
#include <string_view>
#include <vector>

namespace kl::core {

struct LinkSuggestion {
    LineLink link;      ///< origin Suggestion, state Proposed
    std::string reason; ///< "loop 2 of 3", "__shared__ tile -> SBUF tile", "same name 'acc'"
};

/// Proposes CUDA<->NKI line links from the structure of the two sources, for a reviewer to accept or
/// dismiss. Textual, line-based heuristics (no parser): good enough to start from, never authoritative.
///
/// Rules, each pairing the i-th CUDA match with the i-th NKI match:
/// - loops: `for (`/`while (` blocks (brace- or statement-delimited) with `for ... in` blocks over
///   `nl.affine_range`/`sequential_range`/`static_range`/`range` (indentation-delimited);
/// - `__shared__` declarations with SBUF tiles (`nl.ndarray`/`nl.zeros`/`nl.full`/`nl.empty`... with
///   `buffer=nl.sbuf` or no buffer argument);
/// - accumulators (a float local initialised to zero) with PSUM tiles (`buffer=nl.psum`);
/// - identical names: an NKI assignment `name = ...` with the CUDA line that declares or assigns `name`
///   (names of three characters or more that the other rules did not already use).
/// `__syncthreads()` has no NKI counterpart (the compiler inserts the semaphores) and is paired only with
/// an explicit barrier line when the NKI source has one.
/// Suggestions that an `existing` link already covers (same NKI first line and overlapping CUDA
/// lines), and duplicates, are dropped.
class LinkSuggester {
public:
    [[nodiscard]] static std::vector<LinkSuggestion> suggest(std::string_view cudaSource, std::string_view nkiSource,
                                                             const std::vector<LineLink>& existing = {});
};

} // namespace kl::core

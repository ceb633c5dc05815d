#pragma once

#include "review/ReviewTypes.h"

#include <string>
#include <string_view>
#include <vector>

namespace kl::core {

/// A `# cuda:` comment that could not be used; the view shows it in Problems and carries on.
struct SourceWarning {
    int line = 0; ///< 1-based NKI line of the comment
    std::string message;
};

struct CommentLinks {
    std::vector<LineLink> links; ///< origin Comment, state Accepted, in NKI line order
    std::vector<SourceWarning> warnings;
};

/// Reads the `# cuda: N` / `# cuda: A-B` comments of an NKI source (docs/task-format.md).
///
/// A trailing comment links its own line. A comment on a line of its own links the next statement; when
/// that statement opens a block (a header ending in `:`), the link covers the block up to its last
/// indented line. Links nested inside such a block are returned as well; callers that need one link per
/// line take the narrowest (see `linkAtNkiLine`). `cudaLineCount` bounds the ranges: a range outside
/// 1..cudaLineCount is a warning and dropped; 0 means "unknown, do not check". Malformed comments
/// (`# cuda: x`, `# cuda: 9-3`, `# cuda:`) are warnings, never errors.
[[nodiscard]] CommentLinks parseCudaLinkComments(std::string_view nkiSource, int cudaLineCount);

/// Number of lines in a text as an editor counts them (a trailing newline does not open a new line).
[[nodiscard]] int countLines(std::string_view text);

/// Splits a text into lines without their line endings.
[[nodiscard]] std::vector<std::string_view> splitLines(std::string_view text);

} // namespace kl::core

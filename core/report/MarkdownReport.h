#pragma once

#include "report/ReportModel.h"

#include <string>

namespace kl::core::report {

/// The report as Markdown (CommonMark + GitHub tables) for pull requests and wikis. User text is
/// escaped (no link, image, heading or raw HTML can come out of it); source snippets go in fenced code
/// blocks whose fence is longer than any backtick run inside. The timeline image is left out (a
/// Markdown file is one file); time-anchored annotations say where they are instead. Sample:
///
///     ## Task 1: Tiled matmul
///     | Metric | Value |
///     |---|---|
///     | Total time | 48.580 ms |
///     ...
///     #### 1. major - Partition dimension (open)
///     - Anchor: time 1.200 us - 3.400 us
class MarkdownReport {
public:
    [[nodiscard]] static std::string write(const Report& report);
};

} // namespace kl::core::report

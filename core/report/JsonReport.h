#pragma once

#include "report/ReportModel.h"

#include <string>

namespace kl::core::report {

/// The report as JSON for data pipelines; the schema is docs/report-schema.json (JSON Schema
/// draft 2020-12) and a test validates the output against it. Keys are written in a fixed order,
/// text is sanitised UTF-8 (invalid sequences -> U+FFFD), so the same review gives the same bytes:
///
///     {"schema": "kernellens-report", "schema_version": 1, "title": "Review report", ...,
///      "tasks": [{"id": 1, "folder": "matmul", ..., "metrics": [{"key": "total_time_ns", ...}],
///                 "scorecard": {"result": "pass", ...}, "annotations": [{"number": 1, ...}]}]}
class JsonReport {
public:
    [[nodiscard]] static std::string write(const Report& report, int indent = 2);
    static constexpr int kSchemaVersion = 1;
};

} // namespace kl::core::report

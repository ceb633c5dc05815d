#pragma once

#include "report/ReportModel.h"

#include <string>

namespace kl::core::report {

/// Rubric scores as CSV: one row per task and rubric item, RFC 4180 (CRLF line ends, quotes doubled),
/// UTF-8 without BOM. Text cells that start with = + - @ get a leading apostrophe so a spreadsheet
/// shows them instead of running them as formulas. Sample:
///
///     task_id,task_folder,task_title,task_result,area_id,area_title,area_score,item_id,...
///     1,matmul,Tiled matmul,incomplete,hardware,Hardware appropriateness,4.00,hw.partition_dim,...
class CsvReport {
public:
    [[nodiscard]] static std::string write(const Report& report);
};

} // namespace kl::core::report

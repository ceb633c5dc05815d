#include "report/CsvReport.h"

#include "report/ReportText.h"
#include "report/TextEscape.h"

#include <fmt/format.h>

namespace kl::core::report {

std::string CsvReport::write(const Report& report) {
    std::string out = "task_id,task_folder,task_title,task_result,task_overall,area_id,area_title,area_score,"
                      "item_id,item_title,scale,value,normalized,meaning,annotations\r\n";
    for (const ReportTask& t : report.tasks) {
        const Scorecard& c = t.scorecard;
        for (const AreaScore& a : c.areas) {
            for (const ItemScore& i : a.items) {
                out += fmt::format(
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", t.task.id, csvCell(t.task.folder),
                    csvCell(t.task.title), toString(c.result), c.overall ? fmt::format("{:.2f}", *c.overall) : "",
                    csvCell(a.areaId), csvCell(a.title), a.score ? fmt::format("{:.2f}", *a.score) : "",
                    csvCell(i.itemId), csvCell(i.title), i.kind == ScaleKind::PassFail ? "pass_fail" : "levels",
                    i.value ? fmt::format("{}", *i.value) : "",
                    i.normalized ? fmt::format("{:.2f}", *i.normalized) : "", csvCell(i.meaning), i.annotationCount);
            }
        }
    }
    return out;
}

} // namespace kl::core::report

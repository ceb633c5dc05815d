#include "report/JsonReport.h"

#include "report/AgreementSection.h"
#include "report/NumericsSection.h"

#include "report/ReportText.h"
#include "report/TextEscape.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kl::core::report {

namespace {

using Json = nlohmann::ordered_json;

Json text(std::string_view s) {
    return sanitizeUtf8(s);
}

template <typename T> Json optional(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}

Json number(const std::optional<double>& v) {
    return v ? Json(std::round(*v * 1e4) / 1e4) : Json(nullptr);
}

Json scorecardJson(const Scorecard& c) {
    Json j;
    j["result"] = toString(c.result);
    j["overall"] = number(c.overall);
    j["reasons"] = Json::array();
    for (const std::string& r : c.reasons) {
        j["reasons"].push_back(text(r));
    }
    j["unscored"] = Json::array();
    for (const std::string& u : c.unscored) {
        j["unscored"].push_back(text(u));
    }
    j["unresolved_blocking"] = c.unresolvedBlocking;
    j["areas"] = Json::array();
    for (const AreaScore& a : c.areas) {
        Json area;
        area["id"] = text(a.areaId);
        area["title"] = text(a.title);
        area["score"] = number(a.score);
        area["items"] = Json::array();
        for (const ItemScore& i : a.items) {
            Json item;
            item["id"] = text(i.itemId);
            item["title"] = text(i.title);
            item["scale"] = i.kind == ScaleKind::PassFail ? "pass_fail" : "levels";
            item["value"] = optional(i.value);
            item["normalized"] = number(i.normalized);
            item["meaning"] = text(i.meaning);
            item["annotation_count"] = i.annotationCount;
            area["items"].push_back(std::move(item));
        }
        j["areas"].push_back(std::move(area));
    }
    return j;
}

Json anchorJson(const Anchor& a) {
    Json j;
    j["kind"] = std::string(toString(a.kind));
    const bool time = a.kind == AnchorKind::TimeRange;
    const bool lines = a.kind == AnchorKind::NkiLines || a.kind == AnchorKind::CudaLines;
    j["t0_ns"] = time ? Json(a.t0Ns) : Json(nullptr);
    j["t1_ns"] = time ? Json(a.t1Ns) : Json(nullptr);
    j["instruction_id"] = a.kind == AnchorKind::Instruction ? Json(a.instructionId) : Json(nullptr);
    j["first_line"] = lines ? Json(a.firstLine) : Json(nullptr);
    j["last_line"] = lines ? Json(a.lastLine) : Json(nullptr);
    return j;
}

Json annotationJson(const ReportAnnotation& ra) {
    const Annotation& a = ra.annotation;
    Json j;
    j["number"] = ra.number;
    j["id"] = a.id;
    j["anchor"] = anchorJson(a.anchor);
    j["anchor_text"] = text(describeAnchor(ra));
    if (ra.instruction) {
        const InstructionInfo& i = *ra.instruction;
        j["instruction"] = {{"index", i.index},
                            {"ir_id", i.irId},
                            {"op", i.op},
                            {"lane", i.lane},
                            {"start_ns", i.startPs / 1000.0},
                            {"end_ns", i.endPs / 1000.0},
                            {"line", i.line},
                            {"wait_cause", i.waitCause}};
    } else {
        j["instruction"] = nullptr;
    }
    j["item_id"] = a.rubricItem.empty() ? Json(nullptr) : text(a.rubricItem);
    j["severity"] = std::string(toString(a.severity));
    j["score"] = optional(a.score);
    j["text"] = text(a.text);
    j["author"] = text(a.author);
    j["created_at"] = text(a.createdAt);
    j["updated_at"] = text(a.updatedAt);
    j["resolved"] = a.resolved;
    j["replies"] = Json::array();
    for (const Reply& r : ra.replies) {
        j["replies"].push_back(
            {{"id", r.id}, {"author", text(r.author)}, {"text", text(r.text)}, {"created_at", text(r.createdAt)}});
    }
    j["snippets"] = Json::array();
    for (const Snippet& s : ra.snippets) {
        Json lines = Json::array();
        for (const std::string& l : s.lines) {
            lines.push_back(text(l));
        }
        j["snippets"].push_back({{"language", s.language},
                                 {"path", text(s.path)},
                                 {"first_line", s.firstLine},
                                 {"lines", std::move(lines)}});
    }
    return j;
}

Json taskJson(const ReportTask& t) {
    Json j;
    j["id"] = t.task.id;
    j["folder"] = text(t.task.folder);
    j["title"] = text(t.task.title);
    j["status"] = std::string(toString(t.task.status));
    j["seconds_spent"] = t.task.secondsSpent;
    j["kernel"] = text(t.kernel);
    j["cuda_kernel"] = text(t.cudaKernel);
    j["hardware"] = text(t.hardware);
    j["description"] = text(t.description);
    j["metrics_source"] = text(t.metricsSource);
    j["metrics"] = Json::array();
    for (const Metric& m : t.metrics) {
        j["metrics"].push_back({{"key", text(m.key)}, {"label", text(m.label)}, {"value", text(m.value)}});
    }
    j["scorecard"] = scorecardJson(t.scorecard);
    j["annotations"] = Json::array();
    for (const ReportAnnotation& ra : t.annotations) {
        j["annotations"].push_back(annotationJson(ra));
    }
    if (t.findingsRan) { // absent when the rules did not run, so a pipeline can tell "none" from "not looked"
        j["accepted_findings"] = t.acceptedFindings;
        j["findings"] = Json::array();
        for (const ReportFinding& f : t.findings) {
            Json one = {{"key", text(f.key)},
                        {"severity", std::string(toString(f.severity))},
                        {"rule", text(f.rule)},
                        {"title", text(f.title)},
                        {"rubric_item", text(f.rubricItem)},
                        {"figures", text(f.figures)},
                        {"suggestion", text(f.suggestion)},
                        {"dismissed", f.dismissed}};
            one["dismissal_reason"] = f.dismissed ? Json(text(f.dismissalReason)) : Json(nullptr);
            one["dismissed_by"] = f.dismissed ? Json(text(f.dismissedBy)) : Json(nullptr);
            j["findings"].push_back(std::move(one));
        }
    }
    j["numerics"] = numericsReportJson(t);
    return j;
}

} // namespace

std::string JsonReport::write(const Report& report, int indent) {
    Json root;
    root["schema"] = "kernellens-report";
    root["schema_version"] = kSchemaVersion;
    root["title"] = text(report.title);
    root["review_file"] = text(report.reviewFile);
    root["generated_at"] = text(report.generatedAt);
    root["rubric"] = {
        {"id", text(report.rubricId)}, {"title", text(report.rubricTitle)}, {"version", text(report.rubricVersion)}};
    root["tasks"] = Json::array();
    for (const ReportTask& t : report.tasks) {
        root["tasks"].push_back(taskJson(t));
    }
    if (report.team) {
        root["agreement"] = agreementReportJson(*report.team);
    }
    return root.dump(indent) + "\n";
}

} // namespace kl::core::report

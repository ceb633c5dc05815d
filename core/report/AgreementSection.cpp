#include "report/AgreementSection.h"

#include "report/TextEscape.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace kl::core::report {
namespace {

std::string figure(const team::Figure& f) {
    return f.value ? fmt::format("{:.3f}", *f.value) : std::string("-");
}

std::string md(std::string_view text) {
    std::string s = escapeMarkdown(text, false);
    std::string out;
    for (char c : s) {
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string scoresText(const team::Disagreement& d) {
    std::string out;
    for (const auto& [who, value] : d.scores) {
        out += fmt::format("{}{} {}", out.empty() ? "" : ", ", who, value);
    }
    return out;
}

const Adjudication* reasonFor(const TeamSection& t, const team::Disagreement& d) {
    for (const Adjudication& a : t.adjudications) {
        if (a.taskId == d.taskId && a.itemId == d.item) {
            return &a;
        }
    }
    return nullptr;
}

} // namespace

std::string agreementMarkdown(const TeamSection& t) {
    const auto& a = t.agreement;
    std::string names;
    for (const std::string& n : a.reviewers) {
        names += (names.empty() ? "" : ", ") + md(n);
    }
    std::string out = fmt::format("## Reviewer agreement\n\n{} reviewers: {}.\n\n", a.reviewers.size(), names);
    out += "| Item | Level | Alpha | Kappa | Agreement | Tasks | Reviewers |\n|---|---|---|---|---|---|---|\n";
    for (const auto* item : [&] {
             std::vector<const team::ItemAgreement*> all;
             for (const auto& i : a.items) {
                 all.push_back(&i);
             }
             all.push_back(&a.overall);
             return all;
         }()) {
        out += fmt::format("| {} | {} | {} | {}{} | {} | {} | {} |\n", md(item->item), team::levelName(item->level),
                           figure(item->alpha), figure(item->kappa),
                           item->kappaMethod.empty() ? "" : " (" + item->kappaMethod + ")",
                           figure(item->percentAgreement), item->tasks, item->reviewers);
    }
    out += fmt::format("\n### Disagreements ({})\n\n", a.disagreements.size());
    if (!a.disagreements.empty()) {
        out += "| Task | Item | Scores | Agreed | Reason |\n|---|---|---|---|---|\n";
        for (const auto& d : a.disagreements) {
            const Adjudication* why = reasonFor(t, d);
            out += fmt::format("| {} | {} | {} | {} | {} |\n", md(d.taskTitle), md(d.item), md(scoresText(d)),
                               d.agreed ? std::to_string(*d.agreed) : "not yet",
                               why ? md(why->reason + " (" + why->adjudicator + ")") : "");
        }
    }
    return out + "\n";
}

std::string agreementHtml(const TeamSection& t) {
    const auto& a = t.agreement;
    std::string out = "<section class=\"task\">\n<h2>Reviewer agreement</h2>\n<table>\n<tr><th>Item</th><th>Level</th>"
                      "<th>Alpha</th><th>Kappa</th><th>Agreement</th><th>Tasks</th><th>Reviewers</th></tr>\n";
    auto row = [&](const team::ItemAgreement& i) {
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                           escapeHtml(i.item), team::levelName(i.level), figure(i.alpha), figure(i.kappa),
                           i.kappaMethod.empty() ? "" : " (" + i.kappaMethod + ")", figure(i.percentAgreement), i.tasks,
                           i.reviewers);
    };
    for (const auto& i : a.items) {
        row(i);
    }
    row(a.overall);
    out += fmt::format("</table>\n<h3>Disagreements ({})</h3>\n", a.disagreements.size());
    if (!a.disagreements.empty()) {
        out += "<table>\n<tr><th>Task</th><th>Item</th><th>Scores</th><th>Agreed</th><th>Reason</th></tr>\n";
        for (const auto& d : a.disagreements) {
            const Adjudication* why = reasonFor(t, d);
            out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                               escapeHtml(d.taskTitle), escapeHtml(d.item), escapeHtml(scoresText(d)),
                               d.agreed ? std::to_string(*d.agreed) : "not yet",
                               why ? escapeHtml(why->reason + " (" + why->adjudicator + ")") : "");
        }
        out += "</table>\n";
    }
    return out + "</section>\n";
}

nlohmann::json agreementReportJson(const TeamSection& t) {
    nlohmann::json j = team::agreementJson(t.agreement);
    nlohmann::json adjudications = nlohmann::json::array();
    for (const Adjudication& a : t.adjudications) {
        adjudications.push_back({{"task_id", a.taskId},
                                 {"item", sanitizeUtf8(a.itemId)},
                                 {"reason", sanitizeUtf8(a.reason)},
                                 {"adjudicator", sanitizeUtf8(a.adjudicator)},
                                 {"decided_at", a.decidedAt}});
    }
    j["adjudications"] = adjudications;
    return j;
}

} // namespace kl::core::report

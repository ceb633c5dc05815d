#include "gui/FindingsController.h"

#include "common/QtText.h"

#include "gui/ReviewController.h"
#include "gui/ReviewSession.h"
#include "gui/SourceLinkController.h"

#include "findings/FindingsModel.h"
#include "findings/FindingsPane.h"
#include "source/SourcePane.h"
#include "timeline/TimelineView.h"

#include "findings/FindingAnnotation.h"
#include "findings/FindingDecisions.h"

#include <QInputDialog>

#include <algorithm>
#include <limits>

namespace kl::app {

using views::toQString;

namespace {

constexpr std::int64_t kPsPerNs = 1000;
/// Enough instructions to light up a finding's pattern without walking millions of them on the GUI thread.
constexpr std::size_t kMaxHighlighted = 200'000;

} // namespace

FindingsController::FindingsController(ReviewSession* session, ReviewController* review,
                                       SourceLinkController* sourceLinks, Panes panes, QObject* parent)
    : QObject(parent), m_session(session), m_review(review), m_sourceLinks(sourceLinks), m_panes(panes) {
    auto* pane = m_panes.findings;
    connect(pane, &views::FindingsPane::evidenceRequested, this, &FindingsController::goToEvidence);
    connect(pane, &views::FindingsPane::acceptRequested, this, &FindingsController::accept);
    connect(pane, &views::FindingsPane::dismissRequested, this, &FindingsController::askAndDismiss);
    connect(pane, &views::FindingsPane::restoreRequested, this, &FindingsController::restore);
    for (auto signal : {&ReviewSession::opened, &ReviewSession::closed, &ReviewSession::annotationsChanged,
                        &ReviewSession::tasksChanged}) {
        connect(m_session, signal, this, &FindingsController::refreshDecisions);
    }
}

void FindingsController::setRun(std::shared_ptr<const core::RunOutcome> run, bool partOfReview) {
    m_run = std::move(run);
    m_partOfReview = partOfReview;
    m_findings.reset();
    m_panes.findings->setMessage(tr("Running the findings rules over this run..."));
    m_panes.findings->setRoofline(std::nullopt);
    refreshDecisions();
}

void FindingsController::setFindings(std::shared_ptr<const RunFindings> findings) {
    m_findings = std::move(findings);
    if (!m_findings || !m_findings->error.isEmpty()) {
        m_panes.findings->setMessage(
            tr("The findings rules could not run: %1").arg(m_findings ? m_findings->error : tr("no run")));
        return;
    }
    m_panes.findings->setFindings(m_findings->findings);
    m_panes.findings->setRoofline(m_findings->roofline);
    refreshDecisions();
}

void FindingsController::clear(const QString& why) {
    m_run.reset();
    m_findings.reset();
    m_panes.findings->setMessage(why);
    m_panes.findings->setRoofline(std::nullopt);
    refreshDecisions();
}

const core::findings::Finding* FindingsController::findingOf(const QString& key) const {
    const int row = m_panes.findings->model()->rowOfKey(key);
    return m_findings ? m_panes.findings->model()->findingAt(row) : nullptr;
}

std::optional<QString> FindingsController::whyNoReview() const {
    if (!m_session->isOpen()) {
        return QString(); // the pane's own text: open a review
    }
    if (m_session->file()->readOnly()) {
        return tr("The review is read-only (%1): findings cannot be accepted or dismissed.")
            .arg(toQString(m_session->file()->readOnlyReason()));
    }
    if (!m_session->currentTask() || !m_partOfReview) {
        return tr("The run on screen is not a task of the open review: choose the task in the Tasks list to "
                  "accept or dismiss its findings.");
    }
    return std::nullopt;
}

void FindingsController::refreshDecisions() {
    const auto why = whyNoReview();
    const bool available = !why;
    m_panes.findings->setReviewAvailable(available, why.value_or(QString()));
    if (!m_findings || !m_findings->error.isEmpty()) {
        return;
    }
    if (!available) {
        // Without the review nothing is decided: every finding shows as open.
        m_panes.findings->setDecisions(core::findings::decisionsFor(m_findings->findings, {}, {}));
        return;
    }
    m_panes.findings->setDecisions(
        core::findings::decisionsFor(m_findings->findings, m_session->annotations(), m_session->findingDismissals()));
}

void FindingsController::showSourceEvidence(const core::findings::Finding& finding) {
    const core::findings::SourceRange* nki = nullptr;
    const core::findings::SourceRange* cuda = nullptr;
    for (const auto& e : finding.evidence) {
        for (const auto& l : e.lines) {
            auto*& slot = l.side == core::findings::SourceSide::Nki ? nki : cuda;
            slot = slot != nullptr ? slot : &l;
        }
    }
    if (nki != nullptr) {
        const auto& files = m_run->ir->files;
        const auto it = std::find(files.begin(), files.end(), nki->file);
        const auto fileIndex = it == files.end() ? sim::kNoIndex : static_cast<std::uint32_t>(it - files.begin());
        m_sourceLinks->showKernelLocation(fileIndex, nki->firstLine);
        m_panes.nki->highlightLines(nki->firstLine, nki->lastLine);
    }
    if (cuda != nullptr) {
        m_panes.cuda->highlightLines(cuda->firstLine, cuda->lastLine);
    }
}

void FindingsController::goToEvidence(const QString& key) {
    const auto* finding = findingOf(key);
    if (finding == nullptr || !m_run) {
        return;
    }
    // Sources first: moving the NKI caret lights up that line's instructions; the finding's own set comes after.
    showSourceEvidence(*finding);
    const auto& tl = m_run->result->timeline;
    std::vector<std::uint32_t> instructions;
    sim::TimePs t0 = std::numeric_limits<sim::TimePs>::max();
    sim::TimePs t1 = std::numeric_limits<sim::TimePs>::min();
    for (const auto& e : finding->evidence) {
        for (const auto& r : e.instructions) {
            for (std::uint32_t i = r.first; i <= r.last && i < tl.size() && instructions.size() < kMaxHighlighted;
                 ++i) {
                instructions.push_back(i);
            }
        }
        for (const auto& t : e.times) {
            t0 = std::min(t0, t.startPs);
            t1 = std::max(t1, t.endPs);
        }
    }
    if (t0 > t1) { // no time range given: the instructions' span
        for (const std::uint32_t i : instructions) {
            t0 = std::min(t0, tl.mainStartPs(i));
            t1 = std::max(t1, tl.endPs(i));
        }
    }
    std::sort(instructions.begin(), instructions.end());
    instructions.erase(std::unique(instructions.begin(), instructions.end()), instructions.end());
    m_panes.timeline->setHighlighted(instructions);
    if (t0 <= t1) {
        const sim::TimePs margin = std::max<sim::TimePs>((t1 - t0) / 10, 1000);
        m_panes.timeline->setVisibleRange(std::max<sim::TimePs>(0, t0 - margin), t1 + margin);
    }
    emit statusMessage(tr("%1: %2 instruction(s) highlighted").arg(toQString(finding->title)).arg(instructions.size()));
}

bool FindingsController::accept(const QString& key) {
    const auto* finding = findingOf(key);
    if (finding == nullptr || !m_run || !canDecide() || !m_review->ensureReviewer()) {
        return false;
    }
    auto draft = core::findings::annotationDraft(*finding, m_run->result->timeline, m_findings->nkiFile);
    if (draft.anchors.empty()) { // a finding about the whole run (a roofline without evidence): pin it there
        draft.annotation.anchor = core::Anchor::timeRange(0, m_run->result->summary.totalPs / kPsPerNs);
    }
    m_session->addAnnotation(std::move(draft.annotation));
    emit statusMessage(tr("Accepted as an annotation: %1 (Ctrl+Z undoes it)").arg(toQString(finding->title)));
    return true;
}

bool FindingsController::dismiss(const QString& key, const QString& reason) {
    const auto* finding = findingOf(key);
    if (finding == nullptr || reason.trimmed().isEmpty() || !canDecide() || !m_review->ensureReviewer()) {
        return false;
    }
    core::FindingDismissal d;
    d.findingKey = key.toStdString();
    d.rule = finding->rule;
    d.title = finding->title;
    d.reason = reason.trimmed().toStdString();
    m_session->dismissFinding(std::move(d));
    return true;
}

bool FindingsController::askAndDismiss(const QString& key) {
    const auto* finding = findingOf(key);
    if (finding == nullptr || !canDecide()) {
        return false;
    }
    bool ok = false;
    const QString reason =
        QInputDialog::getText(m_panes.window, tr("Dismiss Finding"),
                              tr("Why does \"%1\" not apply? The reason is kept in the review and shown in reports.")
                                  .arg(toQString(finding->title)),
                              QLineEdit::Normal, QString(), &ok);
    if (ok && reason.trimmed().isEmpty()) {
        emit statusMessage(tr("Not dismissed: a dismissal needs a reason."));
        return false;
    }
    return ok && dismiss(key, reason);
}

bool FindingsController::restore(const QString& key) {
    if (findingOf(key) == nullptr || !canDecide()) {
        return false;
    }
    m_session->restoreFinding(key.toStdString());
    return true;
}

} // namespace kl::app

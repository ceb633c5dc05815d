#include "gui/TeamController.h"

#include "gui/ReviewController.h"
#include "gui/ReviewPaths.h"
#include "gui/ReviewSession.h"

#include "team/AgreementPane.h"

#include "review/ReviewFile.h"
#include "team/AgreementReport.h"
#include "team/ReviewMerge.h"

#include <QApplication>
#include <QFileDialog>
#include <QMessageBox>

namespace kl::app {

TeamController::TeamController(ReviewSession* session, ReviewController* review, views::AgreementPane* pane,
                               QWidget* window)
    : QObject(window), m_session(session), m_review(review), m_pane(pane), m_window(window) {
    for (auto signal : {&ReviewSession::opened, &ReviewSession::scoresChanged, &ReviewSession::annotationsChanged}) {
        connect(m_session, signal, this, &TeamController::refresh);
    }
    connect(m_session, &ReviewSession::closed, m_pane, &views::AgreementPane::clear);
    connect(m_pane, &views::AgreementPane::adjudicateRequested, this,
            [this](qint64 task, const QString& item, int value, const QString& reason) {
                if (m_review->ensureReviewer()) {
                    m_session->adjudicate(task, item.toStdString(), value, reason);
                }
            });
    connect(m_pane, &views::AgreementPane::taskRequested, m_review, &ReviewController::showTask);
    connect(m_pane, &views::AgreementPane::reviewerLensChanged, m_review, &ReviewController::setReviewerLens);
}

void TeamController::refresh() {
    core::ReviewFile* file = m_session->file();
    if (file == nullptr) {
        m_pane->clear();
        return;
    }
    auto report = core::team::computeAgreement(*file);
    if (!report) {
        emit statusMessage(
            tr("Agreement figures unavailable: %1").arg(QString::fromStdString(formatError(report.error()))));
        return;
    }
    m_pane->setData(*report, file->annotations().list().value_or(std::vector<core::Annotation>{}), &file->rubric());
}

bool TeamController::merge(const QStringList& inputs, const QString& output, QString* error) {
    std::vector<std::string> paths;
    for (const QString& p : inputs) {
        paths.push_back(p.toStdString());
    }
    auto summary = core::team::mergeReviews(paths, output.toStdString());
    if (!summary) {
        *error = QString::fromStdString(formatError(summary.error()));
        return false;
    }
    emit statusMessage(tr("Merged %1 reviews: %2 tasks, %3 reviewers, %4 annotations (%5 duplicates skipped)")
                           .arg(inputs.size())
                           .arg(summary->tasks)
                           .arg(summary->reviewers.size())
                           .arg(summary->annotations)
                           .arg(summary->duplicatesSkipped));
    return true;
}

void TeamController::chooseMerge() {
    const QStringList inputs = QFileDialog::getOpenFileNames(m_window, tr("Reviews to Merge"), defaultReviewFolder(),
                                                             tr("Review files (*.klreview)"));
    if (inputs.isEmpty()) {
        return;
    }
    if (inputs.size() < 2 &&
        QMessageBox::question(m_window, tr("Merge Reviews"),
                              tr("Only one review was chosen. Merge it alone (to make a team review of it)?")) !=
            QMessageBox::Yes) {
        return;
    }
    const QString output = askReviewSavePath(m_window, tr("Save the Team Review As"), QStringLiteral("team.klreview"));
    if (output.isEmpty()) {
        return;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool merged = merge(inputs, output, &error);
    QApplication::restoreOverrideCursor();
    if (!merged) {
        QMessageBox::warning(m_window, tr("Merge Reviews"), error);
        return;
    }
    emit openRequested(output);
}

} // namespace kl::app

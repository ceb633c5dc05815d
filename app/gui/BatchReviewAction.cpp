#include "gui/BatchReviewAction.h"

#include "gui/ReviewPaths.h"

#include "batch/ReviewFromResults.h"
#include "rubric/RubricLoader.h"
#include "task/TaskSpec.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>

namespace kl::app {

QString newReviewFromBatchResults(QWidget* parent, const QString& reviewer) {
    const QString results = QFileDialog::getOpenFileName(parent, QObject::tr("Batch Results"), defaultReviewFolder(),
                                                         QObject::tr("Batch results (*.db);;All files (*)"));
    if (results.isEmpty()) {
        return {};
    }
    const QStringList choices{QObject::tr("All tasks"), QObject::tr("Tasks with a failed step"),
                              QObject::tr("Tasks that ran cleanly")};
    bool ok = false;
    const QString choice =
        QInputDialog::getItem(parent, QObject::tr("New Review from Batch Results"),
                              QObject::tr("Tasks to review (most in need of a human first):"), choices, 0, false, &ok);
    if (!ok) {
        return {};
    }
    static const char* const kFilters[] = {"all", "failed", "ok"};
    const QString path = askReviewSavePath(parent, QObject::tr("New Review File"),
                                           QFileInfo(results).completeBaseName() + QStringLiteral(".klreview"));
    if (path.isEmpty()) {
        return {};
    }
    auto rubric = core::readTextFile(core::RubricLoader::defaultRubricPath());
    auto made =
        rubric ? core::batch::createReviewFromResults(results.toStdString(), path.toStdString(),
                                                      {*rubric, "nki-migration.json", reviewer.toStdString(),
                                                       kFilters[static_cast<std::size_t>(choices.indexOf(choice))]})
               : std::unexpected(rubric.error());
    if (!made) {
        QMessageBox::warning(parent, QObject::tr("New Review from Batch Results"),
                             QString::fromStdString(formatError(made.error())));
        return {};
    }
    if (!made->missing.empty()) {
        QMessageBox::information(
            parent, QObject::tr("New Review from Batch Results"),
            QObject::tr("%n task folder(s) named in the results no longer exist and were left out.", nullptr,
                        static_cast<int>(made->missing.size())));
    }
    return path;
}

} // namespace kl::app

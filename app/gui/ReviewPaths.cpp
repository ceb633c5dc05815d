#include "gui/ReviewPaths.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace kl::app {
namespace {

constexpr auto kLastFolderKey = "reviews/lastFolder";

} // namespace

QString defaultReviewFolder() {
    const QString last = QSettings().value(QLatin1String(kLastFolderKey)).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) {
        return last;
    }
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return documents.isEmpty() ? QDir::homePath() : documents;
}

QString askReviewSavePath(QWidget* parent, const QString& title, const QString& suggestedName) {
    const QString start = QDir(defaultReviewFolder()).filePath(suggestedName);
    QString path = QFileDialog::getSaveFileName(parent, title, start, QObject::tr("Review files (*.klreview)"));
    if (path.isEmpty()) {
        return {};
    }
    if (!path.endsWith(QLatin1String(".klreview"))) {
        path += QStringLiteral(".klreview");
    }
    QSettings().setValue(QLatin1String(kLastFolderKey), QFileInfo(path).absolutePath());
    return path;
}

} // namespace kl::app

#include "gui/ReportExportDialog.h"

#include "report/ReportBuilder.h"
#include "report/ReportQt.h"
#include "report/ReportWriter.h"
#include "review/ReviewFile.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>

#include <optional>

namespace kl::app {

namespace {

struct FormatChoice {
    const char* label;
    const char* extension;
};
constexpr FormatChoice kFormats[] = {{"HTML (self-contained, prints well)", "html"},
                                     {"PDF", "pdf"},
                                     {"Markdown", "md"},
                                     {"JSON (for pipelines)", "json"},
                                     {"CSV (rubric scores)", "csv"}};

QString fromUtf8(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

struct ExportChoice {
    QString extension;
    std::optional<std::int64_t> taskId;
    QString path;
    bool simulate = true;
};

/// The dialog proper; returns nullopt when the user cancels.
std::optional<ExportChoice> askForChoice(QWidget* parent, const QString& reviewPath,
                                         const std::vector<core::Task>& tasks, bool kernelsTrusted) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export Report"));
    auto* format = new QComboBox(&dialog);
    for (const FormatChoice& f : kFormats) {
        format->addItem(QObject::tr(f.label), QString::fromLatin1(f.extension));
    }
    auto* task = new QComboBox(&dialog);
    task->addItem(QObject::tr("All tasks (%1)").arg(tasks.size()), QVariant());
    for (const core::Task& t : tasks) {
        task->addItem(QObject::tr("Task %1: %2").arg(t.id).arg(fromUtf8(t.title)), QVariant::fromValue<qint64>(t.id));
    }
    const QFileInfo info(reviewPath);
    auto* path = new QLineEdit(info.dir().filePath(info.completeBaseName() + QStringLiteral("-report.html")), &dialog);
    auto* browse = new QPushButton(QObject::tr("Browse..."), &dialog);
    auto* simulate = new QCheckBox(QObject::tr("Re-simulate stored sources when the report needs a run"), &dialog);
    simulate->setChecked(kernelsTrusted);
    simulate->setEnabled(kernelsTrusted);
    simulate->setToolTip(kernelsTrusted
                             ? QObject::tr("HTML and PDF show the timeline, which needs a simulated run; "
                                           "without this, only stored run summaries are used.")
                             : QObject::tr("Re-simulating runs the review's kernels: trust the review first "
                                           "(Trust and Run in the timeline area). Until then the report uses "
                                           "stored run summaries only."));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path, 1);
    pathRow->addWidget(browse);
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("&Format:"), format);
    form->addRow(QObject::tr("&Tasks:"), task);
    // A row holding a layout has no buddy of its own: the label needs the path field as its buddy, or its
    // mnemonic shows as a literal '&'.
    auto* outputLabel = new QLabel(QObject::tr("&Output:"));
    outputLabel->setBuddy(path);
    form->addRow(outputLabel, pathRow);
    form->addRow(QString(), simulate);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(QObject::tr("Export"));
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    // The extension follows the format, so the file opens in the right program.
    QObject::connect(format, &QComboBox::currentIndexChanged, &dialog, [=] {
        QFileInfo current(path->text());
        path->setText(
            current.dir().filePath(current.completeBaseName() + QLatin1Char('.') + format->currentData().toString()));
    });
    QObject::connect(browse, &QPushButton::clicked, &dialog, [=, &dialog] {
        const QString ext = format->currentData().toString();
        const QString chosen = QFileDialog::getSaveFileName(&dialog, QObject::tr("Export Report"), path->text(),
                                                            QObject::tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
        if (!chosen.isEmpty()) {
            path->setText(chosen);
        }
    });
    if (dialog.exec() != QDialog::Accepted || path->text().trimmed().isEmpty()) {
        return std::nullopt;
    }
    ExportChoice choice;
    choice.extension = format->currentData().toString();
    if (task->currentData().isValid()) {
        choice.taskId = task->currentData().toLongLong();
    }
    choice.path = path->text().trimmed();
    choice.simulate = kernelsTrusted && simulate->isChecked();
    return choice;
}

/// Gathers the report task by task under a progress dialog; Cancelled when the user stops it.
Expected<core::report::Report> gather(QWidget* parent, core::ReviewFile& file, const ExportChoice& choice,
                                      std::vector<std::string>& warnings) {
    const bool visual = choice.extension == QLatin1String("html") || choice.extension == QLatin1String("pdf");
    core::report::BuildOptions options;
    options.taskId = choice.taskId;
    options.generatedAt = core::utcNow();
    options.wantRun = visual;
    if (choice.simulate) {
        // One trace per task serves both the run and the findings listed beside the annotations.
        auto stored = core::report::storedTaskCallbacks();
        options.simulate = std::move(stored.simulate);
        options.findings = std::move(stored.findings);
    }
    core::report::ReportBuilder builder(file, options);
    auto tasks = builder.selectedTasks();
    KL_TRY(tasks);
    core::report::Report report = builder.header();
    QProgressDialog progress(QObject::tr("Gathering the report..."), QObject::tr("Cancel"), 0,
                             static_cast<int>(tasks->size()), parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(tasks->size() > 1 ? 0 : 800);
    for (std::size_t i = 0; i < tasks->size(); ++i) {
        const core::Task& t = (*tasks)[i];
        progress.setValue(static_cast<int>(i));
        progress.setLabelText(QObject::tr("Task %1 of %2: %3").arg(i + 1).arg(tasks->size()).arg(fromUtf8(t.title)));
        QCoreApplication::processEvents();
        if (progress.wasCanceled()) {
            return makeError(ErrorCode::Cancelled, "cancelled");
        }
        auto built = builder.buildTask(t);
        KL_TRY(built);
        if (visual) {
            report::attachTimelineImage(*built);
        }
        warnings.insert(warnings.end(), built->warnings.begin(), built->warnings.end());
        report.tasks.push_back(std::move(*built));
    }
    progress.setValue(static_cast<int>(tasks->size()));
    return report;
}

Expected<void> writeReport(const core::report::Report& report, const ExportChoice& choice) {
    const auto format = core::report::parseReportFormat(choice.extension.toStdString());
    if (format == core::report::ReportFormat::Pdf) {
        return report::writePdf(report, choice.path.toStdString());
    }
    // The same writer as `kernellens-cli report` (atomic, like QSaveFile was).
    return core::report::writeReport(report, format.value_or(core::report::ReportFormat::Html),
                                     choice.path.toStdString());
}

} // namespace

void showReportExportDialog(QWidget* parent, const QString& reviewPath, bool kernelsTrusted) {
    auto file = core::ReviewFile::open(reviewPath.toStdString());
    if (!file) {
        QMessageBox::warning(parent, QObject::tr("Export Report"), fromUtf8(formatError(file.error())));
        return;
    }
    auto tasks = file->tasks().list();
    if (!tasks) {
        QMessageBox::warning(parent, QObject::tr("Export Report"), fromUtf8(formatError(tasks.error())));
        return;
    }
    const auto choice = askForChoice(parent, reviewPath, *tasks, kernelsTrusted);
    if (!choice) {
        return;
    }
    std::vector<std::string> warnings;
    auto report = gather(parent, *file, *choice, warnings);
    if (!report && report.error().code == ErrorCode::Cancelled) {
        return;
    }
    Expected<void> written = report ? writeReport(*report, *choice) : Expected<void>(std::unexpected(report.error()));
    if (!written) {
        QMessageBox::warning(parent, QObject::tr("Export Report"), fromUtf8(formatError(written.error())));
        return;
    }
    QString message = QObject::tr("Wrote %1").arg(QDir::toNativeSeparators(choice->path));
    for (const std::string& w : warnings) {
        message += QLatin1Char('\n') + fromUtf8(w);
    }
    QMessageBox::information(parent, QObject::tr("Export Report"), message);
}

} // namespace kl::app

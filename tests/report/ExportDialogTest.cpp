// File > Export Report, driven offscreen: the dialog's choices reach the file that is written.
#include "ReportFixture.h"
#include "TestSupport.h"

#include "gui/ReportExportDialog.h"
#include "report/ReportQt.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QTimer>

namespace kl::core::report::test {
namespace {

TEST(ExportDialog, WritesMarkdownOfAllTasks) {
    kl::core::test::TempDir dir;
    const std::string review = dir.file("sample.klreview");
    {
        ReviewFile file = kl::core::test::makeReview(review);
        fillSampleReview(file);
    }
    kl::app::report::QtSession session;
    QString written;
    QString message;
    int ticks = 0;
    QTimer timer;
    timer.setInterval(20);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (++ticks > 500) { // 10 s: give up rather than hang the suite
            if (QWidget* w = QApplication::activeModalWidget()) {
                w->close();
            }
            return;
        }
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            message = box->text();
            box->accept();
        } else if (auto* dialog = qobject_cast<QDialog*>(modal); dialog && dialog->findChild<QComboBox*>()) {
            auto* format = dialog->findChild<QComboBox*>();
            format->setCurrentIndex(2); // Markdown: the path's extension follows
            dialog->findChild<QCheckBox*>()->setChecked(false);
            written = dialog->findChild<QLineEdit*>()->text();
            dialog->accept();
        }
    });
    timer.start();
    kl::app::showReportExportDialog(nullptr, QString::fromStdString(review));
    timer.stop();
    ASSERT_TRUE(written.endsWith(QStringLiteral("sample-report.md"))) << written.toStdString();
    EXPECT_TRUE(message.startsWith(QStringLiteral("Wrote"))) << message.toStdString();
    const std::string md = kl::core::test::readBytes(written.toStdString());
    EXPECT_NE(md.find("## Task 1: Tiled matmul"), std::string::npos);
    EXPECT_NE(md.find("#### 4. blocking"), std::string::npos);
}

} // namespace
} // namespace kl::core::report::test

// Several reviewers in the window: merge two reviewers' files, read the agreement and the disagreement,
// set the agreed grade with a reason (on disk, undoable), and colour the timeline's annotations by reviewer.
#include "gui/MainWindow.h"
#include "gui/ReviewSession.h"
#include "gui/TeamController.h"
#include "gui/WorkspaceTrust.h"

#include "review/ReviewFile.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "team/AgreementItemsModel.h"
#include "team/AgreementPane.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

namespace {

/// A reviewer's file on the bundled vector-add task: a score for semantics and one time-range annotation.
void writeReviewer(const QString& path, const std::string& who, int semantics) {
    const std::string rubric =
        kl::core::readTextFile(kl::core::resourcesDir() / "rubrics" / "nki-migration.json").value_or("");
    auto file = kl::core::ReviewFile::create(path.toStdString(), {rubric, "nki-migration.json", who});
    QVERIFY(file.has_value());
    auto task = file->tasks().addFromFolder(KL_SOURCE_DIR "/examples/vector_add_nki");
    QVERIFY(task.has_value());
    QVERIFY(file->scores().set(task->id, "fidelity.semantics", semantics, who).has_value());
    kl::core::Annotation a;
    a.taskId = task->id;
    a.author = who;
    a.rubricItem = "fidelity.semantics";
    a.text = who + " says why";
    a.anchor = kl::core::Anchor::timeRange(100, 900);
    QVERIFY(file->annotations().create(a).has_value());
}

std::optional<int> agreedOnDisk(const QString& path) {
    auto file = kl::core::ReviewFile::open(path.toStdString());
    auto score = file ? file->scores().find(1, "fidelity.semantics") : std::unexpected(file.error());
    return score && *score ? std::optional((*score)->value) : std::nullopt;
}

} // namespace

class TeamWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("TeamWindowTest"));
        QSettings().clear();
        QSettings().setValue(QStringLiteral("reviewer"), QStringLiteral("Lead"));
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }

    void mergeAgreeAdjudicateAndTheReviewerLens() {
        QTemporaryDir dir;
        const QString ana = dir.filePath(QStringLiteral("ana.klreview")),
                      bo = dir.filePath(QStringLiteral("bo.klreview"));
        writeReviewer(ana, "ana", 1);
        writeReviewer(bo, "bo", 0);
        kl::app::MainWindow window;
        window.resize(1400, 900);
        window.show();
        const QString team = dir.filePath(QStringLiteral("team.klreview"));
        QString error;
        QVERIFY2(window.team()->merge({ana, bo}, team, &error), qPrintable(error));
        QVERIFY(window.openPath(team));

        auto* pane = window.findChild<kl::views::AgreementPane*>();
        QVERIFY(pane != nullptr);
        const QAbstractItemModel* items = pane->itemsTable()->model();
        QCOMPARE(items->rowCount(), 2); // semantics and overall, in the report's order
        QCOMPARE(items->index(0, 0).data(kl::views::AgreementItemsModel::LevelRole).toString(),
                 QStringLiteral("nominal"));
        QCOMPARE(items->index(1, 0).data().toString(), QStringLiteral("Overall"));
        const QAbstractItemModel* disputes = pane->disputesTable()->model();
        const QAbstractItemModel* detail = pane->detailTable()->model();
        QCOMPARE(disputes->rowCount(), 1);
        pane->disputesTable()->setCurrentIndex(disputes->index(0, 0));
        QCOMPARE(detail->rowCount(), 2);
        QCOMPARE(detail->index(1, 2).data().toString(), QStringLiteral("bo says why"));

        // A grade without a reason cannot be set; with one it is on disk at once, and undo takes it back.
        pane->valueBox()->setValue(0);
        QVERIFY(!pane->agreeButton()->isEnabled());
        pane->reasonEdit()->setText(QStringLiteral("the ragged tail is not masked"));
        QVERIFY(pane->agreeButton()->isEnabled());
        pane->agreeButton()->click();
        QCOMPARE(agreedOnDisk(team), std::optional(0));
        QCOMPARE(disputes->index(0, 2).data().toString(), QStringLiteral("0"));
        QCOMPARE(pane->disputesTable()->currentIndex().row(), 0); // the adjudicator's place is kept
        QCOMPARE(detail->rowCount(), 2);
        window.review()->undoStack()->undo();
        QCOMPARE(agreedOnDisk(team), std::nullopt);

        // The reviewer lens: both annotations in reviewer colours, then bo's hidden.
        auto* timeline = window.timelinePage()->timeline();
        QCOMPARE(timeline->annotationBands().size(), std::size_t{2});
        pane->lensBox()->setChecked(true);
        QCOMPARE(timeline->annotationBands()[0].colour, kl::views::AgreementPane::reviewerColour(0));
        QCOMPARE(timeline->annotationBands()[1].colour, kl::views::AgreementPane::reviewerColour(1));
        QAbstractItemModel* reviewers = pane->reviewerList()->model();
        QCOMPARE(reviewers->index(1, 0).data().toString(), QStringLiteral("bo"));
        QCOMPARE(reviewers->index(1, 0).data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        QVERIFY(reviewers->index(1, 0).flags() & Qt::ItemIsUserCheckable);
        QVERIFY(reviewers->setData(reviewers->index(1, 0), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(timeline->annotationBands().size(), std::size_t{1});

        // Merging files of different task contents is refused with the reason.
        const QString other = dir.filePath(QStringLiteral("other.klreview"));
        {
            auto file = kl::core::ReviewFile::create(
                other.toStdString(),
                {kl::core::readTextFile(kl::core::resourcesDir() / "rubrics" / "nki-migration.json").value_or(""), "r",
                 "cy"});
            QVERIFY(file.has_value());
            QVERIFY(file->tasks().add("vector_add_nki", "changed", {{"kernel.py", "nki", "# changed\n"}}).has_value());
        }
        QVERIFY(!window.team()->merge({ana, other}, dir.filePath(QStringLiteral("bad.klreview")), &error));
        QVERIFY2(error.contains(QStringLiteral("vector_add_nki")), qPrintable(error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("bad.klreview"))));
    }

    void cleanupTestCase() {
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }
};

QTEST_MAIN(TeamWindowTest)
#include "TeamWindowTest.moc"

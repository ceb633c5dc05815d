#include "TestIr.h"

#include "compare/CompareView.h"
#include "compare/ComparisonModel.h"
#include "engine/Simulator.h"
#include "gui/TeachingController.h"
#include "lesson/LessonPanel.h"
#include "result/SyntheticRun.h"
#include "timeline/TimelineView.h"
#include "whatif/WhatIfPanel.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QTextBrowser>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using kl::views::CompareSide;
using kl::views::CompareView;
using kl::views::LessonPanel;

namespace {

kl::core::Lesson makeLesson(const std::string& title, int steps) {
    kl::core::Lesson lesson;
    lesson.title = title;
    lesson.summary = "summary";
    lesson.cudaCounterpart = "cuda";
    for (int i = 0; i < steps; ++i) {
        kl::core::LessonStep s;
        s.title = "step " + std::to_string(i);
        s.text = "took {a.total_us}";
        s.task = i == 0 ? "softmax" : "rmsnorm";
        if (i == 1) {
            s.compare = kl::core::LessonComparison{"softmax", "trn2"};
            s.timeRange = kl::core::LessonTimeRange{0.1, 0.4, kl::core::LessonTimeRange::Unit::Fraction};
        }
        if (i == 2) {
            s.whatIf = {{"dma.queues", 4}};
            s.nkiLines = {3, 7};
        }
        lesson.steps.push_back(s);
    }
    return lesson;
}

} // namespace

class TeachingViewTest : public QObject {
    Q_OBJECT

private slots:
    void compareViewKeepsBothTimelinesOnOneRange() {
        CompareView view;
        view.resize(1200, 800);
        view.show();
        CompareSide a{kl::sim::makeSyntheticRun(400), QStringLiteral("long"), QStringLiteral("a.py"),
                      QStringLiteral("x = 1\n")};
        CompareSide b{kl::sim::makeSyntheticRun(50), QStringLiteral("short"), QStringLiteral("b.py"),
                      QStringLiteral("y = 2\n")};
        view.setRuns(a, b);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto* ta = view.timelineA();
        auto* tb = view.timelineB();
        QCOMPARE(ta->visibleStart(), tb->visibleStart());
        QCOMPARE(ta->visibleEnd(), tb->visibleEnd());
        QCOMPARE(ta->visibleEnd(), view.commonEnd());
        ta->zoomBy(4.0, 0.25);
        QVERIFY(ta->visibleEnd() - ta->visibleStart() < view.commonEnd() / 2);
        QCOMPARE(tb->visibleStart(), ta->visibleStart());
        QCOMPARE(tb->visibleEnd(), ta->visibleEnd());
        tb->setFocus();
        QTest::keyClick(tb, Qt::Key_D); // pan the other one: A follows
        QCOMPARE(ta->visibleStart(), tb->visibleStart());
        QCOMPARE(ta->visibleEnd(), tb->visibleEnd());
        // Fit on the short run still shows the long run's whole scale on both.
        view.setTimeRange(0, view.commonEnd());
        QCOMPARE(tb->visibleEnd(), view.commonEnd());
        QVERIFY(view.model()->rowCount() > 5);
        QCOMPARE(view.model()->columnCount(), 5);
    }

    void lessonPanelStepsWithButtonsAndKeys() {
        LessonPanel panel;
        panel.resize(400, 600);
        panel.show();
        QSignalSpy steps(&panel, &LessonPanel::stepChanged);
        QSignalSpy tasks(&panel, &LessonPanel::taskRequested);
        QSignalSpy comparisons(&panel, &LessonPanel::comparisonRequested);
        QSignalSpy ranges(&panel, &LessonPanel::timeRangeRequested);
        QSignalSpy whatIfs(&panel, &LessonPanel::whatIfRequested);
        QSignalSpy lines(&panel, &LessonPanel::sourceLinesRequested);
        panel.setLessons({makeLesson("first", 3), makeLesson("second", 2)});
        QAbstractItemModelTester tester(panel.stepList()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(steps.count(), 1);
        QCOMPARE(steps.last().at(1).toInt(), 0);
        QCOMPARE(tasks.last().at(0).toString(), QStringLiteral("softmax"));
        QVERIFY(!panel.previousButton()->isEnabled());

        QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
        QCOMPARE(steps.count(), 2);
        QCOMPARE(steps.last().at(1).toInt(), 1);
        QCOMPARE(tasks.last().at(0).toString(), QStringLiteral("rmsnorm"));
        QCOMPARE(comparisons.count(), 1);
        QCOMPARE(comparisons.last().at(1).toString(), QStringLiteral("trn2"));
        QCOMPARE(ranges.count(), 1);
        QCOMPARE(ranges.last().at(0).toDouble(), 0.1);
        QCOMPARE(ranges.last().at(2).toBool(), true);

        panel.setFocus();
        QTest::keyClick(&panel, Qt::Key_PageDown);
        QCOMPARE(panel.currentStep(), 2);
        QCOMPARE(whatIfs.count(), 1);
        QCOMPARE(lines.count(), 1);
        QCOMPARE(lines.last().at(0).toInt(), 3);
        QVERIFY(!panel.nextButton()->isEnabled());
        QTest::mouseClick(panel.nextButton(), Qt::LeftButton); // disabled: nothing happens
        QCOMPARE(steps.count(), 3);

        QTest::keyClick(&panel, Qt::Key_PageUp);
        QCOMPARE(panel.currentStep(), 1);
        QTest::mouseClick(panel.previousButton(), Qt::LeftButton);
        QCOMPARE(panel.currentStep(), 0);
        QCOMPARE(steps.count(), 5);

        panel.setNumbers({{"a.total_us", 253.06}});
        QVERIFY(panel.textView()->toPlainText().contains(QStringLiteral("took 253.1 us")));
        panel.selectLesson(1);
        QCOMPARE(panel.currentLesson(), 1);
        QCOMPARE(panel.stepList()->count(), 2);
        QCOMPARE(steps.last().at(0).toInt(), 1);
    }

    void lessonStateFollowsTheComparisonOnScreen() {
        // The user picks another comparison while a lesson step is shown: the step's figures go, the panel says
        // why and offers the step again; a step run still on its way is dropped.
        kl::app::TeachingController controller;
        controller.setRunProvider([](const kl::core::RunRequest&) -> kl::Expected<kl::core::RunOutcome> {
            return std::unexpected(kl::Error{kl::ErrorCode::Io, "no runs in this test"});
        });
        LessonPanel* panel = controller.lessonPanel();
        QVERIFY(panel->step() != nullptr);
        panel->setNumbers({{"a.total_us", 253.06}});
        QVERIFY(panel->textView()->toPlainText().contains(QStringLiteral("253.1")));
        QVERIFY(panel->isOnScreen());
        controller.comparePair(QStringLiteral("/nonexistent/a"), QStringLiteral("trn1"),
                               QStringLiteral("/nonexistent/b"), QStringLiteral("trn2"));
        QVERIFY(!panel->isOnScreen());
        QVERIFY(!panel->textView()->toPlainText().contains(QStringLiteral("253.1")));
        QVERIFY(!panel->againButton()->isHidden());
        QSignalSpy steps(panel, &LessonPanel::stepChanged);
        QTest::mouseClick(panel->againButton(), Qt::LeftButton);
        QCOMPARE(steps.count(), 1);
        QVERIFY(panel->isOnScreen());
        QVERIFY(panel->againButton()->isHidden());
    }

    void whatIfPanelReportsChangedFieldsOnly() {
        kl::views::WhatIfPanel panel;
        const auto profile = kl::sim::test::profile("trn1");
        panel.setBase(profile, kl::sim::makeSyntheticRun(10), QStringLiteral("base"));
        QSignalSpy changed(&panel, &kl::views::WhatIfPanel::overridesChanged);
        panel.spinBox(QStringLiteral("dma.queues"))->setValue(4);
        QVERIFY(changed.wait(2000));
        const auto overrides = panel.overrides();
        QCOMPARE(overrides.size(), std::size_t(1));
        QCOMPARE(overrides.at("dma.queues"), 4.0);
        panel.showResult(kl::sim::makeSyntheticRun(10), 12.0);
        QVERIFY2(panel.statusText().contains(QStringLiteral("->")), qPrintable(panel.statusText()));
        QVERIFY2(!panel.statusText().contains(QStringLiteral("&gt;")), qPrintable(panel.statusText()));
        panel.setOverrides({});
        QVERIFY(panel.overrides().empty());
    }

    void controllerReSimulatesTheBaseIrOnAWorker() {
        kl::sim::test::TestIr t;
        const int a = t.buffer("a", "hbm", {128, 16384});
        const int s = t.buffer("s", "sbuf", {128, 16384});
        t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)});
        auto ir = std::make_shared<const kl::sim::KernelIr>(t.load());
        auto result = *kl::sim::Simulator::run(*ir, kl::sim::test::profile("trn1"));
        auto outcome = std::make_shared<const kl::core::RunOutcome>(kl::core::RunOutcome{ir, result, {}});
        kl::app::TeachingController controller;
        controller.setBaseRun(outcome, QStringLiteral(KL_SOURCE_DIR "/examples/softmax"), QStringLiteral("trn1"));
        QSignalSpy shown(&controller, &kl::app::TeachingController::whatIfShown);
        QSignalSpy stacked(&controller, &kl::app::TeachingController::whatIfRunChanged);
        controller.whatIfPanel()->setOverrides({{"dma.fixed_latency", 300}});
        QVERIFY(shown.wait(10000));
        // The re-simulated run goes to the timeline too, titled with the task and the changed field.
        QVERIFY(!stacked.isEmpty());
        const auto run = stacked.last().at(0).value<std::shared_ptr<const kl::sim::SimResult>>();
        QVERIFY(run != nullptr);
        QCOMPARE(run->summary.totalPs, result->summary.totalPs - 1'000'000);
        const QString title = stacked.last().at(1).toString();
        QVERIFY2(title.contains(QStringLiteral("Row softmax")) && title.contains(QStringLiteral("fixed")),
                 qPrintable(title));

        const QAbstractItemModel* table = controller.whatIfPanel()->table()->model();
        const auto cell = [table](int column) { return table->index(0, column); };
        QCOMPARE(cell(0).data().toString(), QStringLiteral("Total time"));
        // 1300 ns -> 300 ns of fixed latency: the total drops by exactly 1 us.
        const double base = static_cast<double>(result->summary.totalPs) / 1e6;
        QCOMPARE(cell(1).data().toString(), QStringLiteral("%1 us").arg(base, 0, 'f', 2));
        QCOMPARE(cell(2).data().toString(), QStringLiteral("%1 us").arg(base - 1.0, 0, 'f', 2));
        QVERIFY2(cell(3).data().toString().startsWith(QStringLiteral("-1.00 us")),
                 qPrintable(cell(3).data().toString()));
        // Shorter is green, and the figures sit on the right of their cells.
        QCOMPARE(cell(3).data(Qt::ForegroundRole).value<QColor>(), QColor(0x1b, 0x7f, 0x3b));
        QVERIFY(cell(2).data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight);
        controller.whatIfPanel()->setOverrides({}); // back to the base: the stacked run goes
        QVERIFY(stacked.last().at(0).value<std::shared_ptr<const kl::sim::SimResult>>() == nullptr);
        QCOMPARE(cell(2).data().toString(), QStringLiteral("\u2013")); // and its column empties
        QVERIFY(cell(3).data().toString().isEmpty());
    }
};

QTEST_MAIN(TeachingViewTest)
#include "TeachingViewTest.moc"

#include "result/SyntheticRun.h"

#include "plots/RunPlotData.h"
#include "plots/RunPlots.h"
#include "timeline/InstructionFinder.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelinePage.h"

#include <QLineEdit>
#include "timeline/TimelineView.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

using kl::sim::TimePs;
using kl::views::TimelineRows;
using kl::views::TimelineView;

class TimelineViewTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TimelineView> makeView(std::size_t count) {
        auto view = std::make_unique<TimelineView>();
        view->resize(1120, 260);
        view->setResult(kl::sim::makeSyntheticRun(count));
        view->show();
        return view;
    }

private slots:
    void keysChangeTheVisibleRange_data() {
        QTest::addColumn<int>("key");
        QTest::addColumn<double>("spanFactor");
        QTest::addColumn<double>("shiftFraction");
        QTest::newRow("W zooms in") << int(Qt::Key_W) << 1 / 1.25 << 0.0;
        QTest::newRow("S zooms out") << int(Qt::Key_S) << 1.25 << 0.0;
        QTest::newRow("A pans left") << int(Qt::Key_A) << 1.0 << -0.15;
        QTest::newRow("D pans right") << int(Qt::Key_D) << 1.0 << 0.15;
    }

    void keysChangeTheVisibleRange() {
        QFETCH(int, key);
        QFETCH(double, spanFactor);
        QFETCH(double, shiftFraction);
        auto view = makeView(1000);
        view->setVisibleRange(100'000, 200'000);
        QSignalSpy spy(view.get(), &TimelineView::visibleRangeChanged);
        QTest::keyClick(view.get(), static_cast<Qt::Key>(key));
        QCOMPARE(spy.count(), 1);
        const double span = static_cast<double>(view->visibleEnd() - view->visibleStart());
        QVERIFY(std::abs(span - 100'000 * spanFactor) <= 2);
        const double centre = static_cast<double>(view->visibleStart() + view->visibleEnd()) / 2;
        QVERIFY(std::abs(centre - (150'000 + 100'000 * shiftFraction)) <= 2);
    }

    void fitShowsTheWholeRun() {
        auto view = makeView(1000);
        view->setVisibleRange(5'000, 6'000);
        QTest::keyClick(view.get(), Qt::Key_F);
        QVERIFY(view->visibleStart() <= 0);
        QVERIFY(view->visibleEnd() >= view->rows()->endTime());
    }

    void clickSelectsTheInstructionUnderTheCursor() {
        auto view = makeView(1000);
        view->setVisibleRange(0, 30'000);
        const auto& tl = view->rows()->result().timeline;
        const std::uint32_t target = 11; // rotation position 1: the vector lane
        QCOMPARE(tl.lane(target), std::uint16_t{2});
        const auto row = view->rows()->rowOf(target);
        QVERIFY(row.has_value());
        const int x = static_cast<int>(view->xOf((tl.mainStartPs(target) + tl.endPs(target)) / 2));
        QSignalSpy spy(view.get(), &TimelineView::instructionSelected);
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(x, view->rowCentreY(*row)));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), qint64{target});
        QCOMPARE(view->selectedInstruction().value(), target);
    }

    void clickOnEmptySpaceClearsTheSelection() {
        auto view = makeView(100);
        view->selectInstruction(3);
        const auto row = view->rows()->rowOf(3);
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(view->width() - 2, view->rowCentreY(*row)));
        QVERIFY(!view->selectedInstruction().has_value());
    }

    void dragSelectsATimeRange() {
        auto view = makeView(1000);
        view->setVisibleRange(0, 100'000);
        QSignalSpy spy(view.get(), &TimelineView::rangeSelected);
        const int y = view->rowCentreY(2);
        QTest::mousePress(view.get(), Qt::LeftButton, {}, QPoint(300, y));
        QTest::mouseMove(view.get(), QPoint(500, y));
        QTest::mouseRelease(view.get(), Qt::LeftButton, {}, QPoint(500, y));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), view->timeAt(300));
        QCOMPARE(spy.at(0).at(1).toLongLong(), view->timeAt(500));
    }

    void plotsFollowTheTimeline() {
        auto view = makeView(1000);
        kl::views::RunPlots plots;
        plots.setResult(kl::sim::makeSyntheticRun(1000));
        connect(view.get(), &TimelineView::visibleRangeChanged, &plots, &kl::views::RunPlots::setTimeRange);
        view->setVisibleRange(40'000, 90'000);
        QTest::keyClick(view.get(), Qt::Key_W);
        const auto [p0, p1] = plots.timeRangePs();
        QVERIFY(std::abs(p0 - static_cast<double>(view->visibleStart())) < 1);
        QVERIFY(std::abs(p1 - static_cast<double>(view->visibleEnd())) < 1);
        QCOMPARE(plots.graphCount(), 5);
    }

    void plotsInstallSeriesBuiltOffTheGuiThread() {
        // The worker converts the run's series (RunPlotData::build); setResult only hands them to the graphs, which
        // share them: the same containers, no copy on the GUI thread, and the same points as a conversion here.
        auto run = kl::sim::makeSyntheticRun(1000);
        const auto data = kl::views::RunPlotData::build(*run);
        QVERIFY(data->compute->size() > 2);
        QVERIFY(data->dma->size() > 1);
        kl::views::RunPlots installed;
        installed.setResult(run, data);
        QCOMPARE(installed.plot()->graph(0)->data().data(), data->sbuf.data());
        QCOMPARE(installed.plot()->graph(3)->data().data(), data->compute.data());
        kl::views::RunPlots converted;
        converted.setResult(run);
        QCOMPARE(converted.graphCount(), installed.graphCount());
        for (int g = 0; g < installed.graphCount(); ++g) {
            const auto& a = *installed.plot()->graph(g)->data();
            const auto& b = *converted.plot()->graph(g)->data();
            QCOMPARE(a.size(), b.size());
            for (int i = 0; i < a.size(); ++i) {
                QCOMPARE(a.at(i)->key, b.at(i)->key);
                QCOMPARE(a.at(i)->value, b.at(i)->value);
            }
        }
        QCOMPARE(installed.plot()->graph(2)->valueAxis()->range().upper,
                 converted.plot()->graph(2)->valueAxis()->range().upper);
        // A new run replaces the shared series; it never clears the ones the previous data holds.
        installed.setResult(nullptr);
        QVERIFY(data->sbuf->size() > 0);
        QCOMPARE(installed.plot()->graph(0)->data()->size(), 0);
    }

    void narrowInstructionsFoldIntoFewMarks() {
        auto view = makeView(200'000);
        view->fit();
        // Everything is far narrower than a pixel: at most one mark per 3 px per row.
        const double plotWidth = view->width() - TimelineView::kLabelWidth;
        QVERIFY(view->markCount() <= view->rows()->rowCount() * static_cast<std::size_t>(plotWidth / 3 + 2));
        QVERIFY(view->markCount() > 0);
        // Zoomed in far enough, every mark is one instruction again.
        view->setVisibleRange(0, 20'000);
        QVERIFY(view->markCount() >= 20);
    }

    void foldedMarksShowHowBusyTheirSpanIs() {
        // Same instructions, back to back or with nine times their length of idle time in between: at
        // full zoom-out both fold, and the folded marks say how busy the lane really is.
        constexpr TimePs kDuration = 1000;
        for (const TimePs gap : {TimePs{0}, 9 * kDuration}) {
            const TimelineRows rows(kl::sim::makeSyntheticRun(50'000, kDuration, gap));
            std::vector<kl::views::TimelineMark> marks;
            rows.buildMarks(0, rows.endTime(), 1000.0, 3.0, marks);
            const double expected = static_cast<double>(kDuration) / static_cast<double>(kDuration + gap);
            std::size_t folded = 0;
            for (const auto& mark : marks) {
                if (mark.count > 1 && rows.rowKind(mark.row) == TimelineRows::Kind::Engine) {
                    ++folded;
                    QVERIFY2(std::abs(mark.busy - expected) < 0.15,
                             qPrintable(QStringLiteral("busy %1, expected about %2").arg(mark.busy).arg(expected)));
                }
            }
            QVERIFY(folded > 100);
        }
    }

    void dmaQueuesCollapseIntoOneRow() {
        auto view = makeView(100);
        const std::size_t expanded = view->rows()->rowCount();
        std::size_t dmaRow = 0;
        while (view->rows()->rowKind(dmaRow) != TimelineRows::Kind::DmaQueue) {
            ++dmaRow;
        }
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(20, view->rowCentreY(dmaRow)));
        QCOMPARE(view->rows()->rowCount(), expanded - 1); // two queues became one summary row
        QCOMPARE(view->rows()->rowKind(dmaRow), TimelineRows::Kind::DmaSummary);
    }

    void findMatchesOperationsLanesAndLines_data() {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("expected");
        // 100 instructions in a rotation of 5 lanes: 20 each; lines cycle 10..16.
        QTest::newRow("operation") << QStringLiteral("matmul") << 20;
        QTest::newRow("lane") << QStringLiteral("dma") << 40;
        QTest::newRow("case-insensitive") << QStringLiteral("  DMA_copy ") << 40;
        QTest::newRow("line") << QStringLiteral("10") << 15;
        QTest::newRow("line word") << QStringLiteral("line 16") << 14;
        QTest::newRow("line range") << QStringLiteral("10-11") << 30;
        QTest::newRow("nothing") << QStringLiteral("bn_aggr") << 0;
        QTest::newRow("reversed range") << QStringLiteral("12-10") << 0;
    }

    void findMatchesOperationsLanesAndLines() {
        QFETCH(QString, query);
        QFETCH(int, expected);
        const auto run = kl::sim::makeSyntheticRun(100);
        QCOMPARE(static_cast<int>(kl::views::findInstructions(*run, query.toStdString()).size()), expected);
    }

    void findBarHighlightsAndStepsThroughMatches() {
        kl::views::TimelinePage page;
        page.resize(1200, 500);
        page.setRun(kl::sim::makeSyntheticRun(100));
        page.show();
        page.findField()->setText(QStringLiteral("matmul"));
        QCOMPARE(page.matches().size(), std::size_t{20});
        page.findNext(1);
        QCOMPARE(page.timeline()->selectedInstruction().value(), page.matches()[0]);
        page.findNext(1);
        QCOMPARE(page.timeline()->selectedInstruction().value(), page.matches()[1]);
        page.findNext(-1);
        page.findNext(-1); // wraps to the last match
        QCOMPARE(page.timeline()->selectedInstruction().value(), page.matches().back());
    }

    void timeLabelsUseReadableUnits_data() {
        QTest::addColumn<qint64>("ps");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64{0} << qint64{1000} << QStringLiteral("0");
        QTest::newRow("ns") << qint64{250'000} << qint64{50'000} << QStringLiteral("250 ns");
        QTest::newRow("us") << qint64{1'500'000} << qint64{500'000} << QStringLiteral("1.5 us");
        QTest::newRow("ms") << qint64{12'250'000'000} << qint64{250'000'000} << QStringLiteral("12.25 ms");
    }

    void timeLabelsUseReadableUnits() {
        QFETCH(qint64, ps);
        QFETCH(qint64, step);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(kl::views::formatTime(ps, step)), text);
    }
};

QTEST_MAIN(TimelineViewTest)
#include "TimelineViewTest.moc"

// The timeline reads like a profiler's (issue 21, item 2): a colour key outside the data, busy percentages
// beside the lanes, flow arrows for the selection, one time axis for the timeline and its plots (same ticks,
// same pixels, with or without a scroll bar), the dragged range on every plot, units and precise times.
#include "TestIr.h"
#include "engine/Simulator.h"
#include "result/SyntheticRun.h"

#include "common/Contrast.h"
#include "plots/RunPlots.h"
#include "timeline/InspectorPane.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimelineLegend.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <set>
#include <string>

using kl::sim::TimePs;
using kl::views::TimelinePage;
using kl::views::TimelineView;

class TimelineReadabilityTest : public QObject {
    Q_OBJECT

private:
    static double pageX(const TimelinePage& page, const QWidget* widget, double x) {
        return widget->mapTo(&page, QPoint(0, 0)).x() + x;
    }

private slots:
    void busyPercentagesFollowTheLanes() {
        TimelineView view;
        view.resize(1100, 300);
        view.setResult(kl::sim::makeSyntheticRun(1000, 1000, 200));
        view.fit();
        for (std::size_t row = 0; row < view.rows()->rowCount(); ++row) {
            if (view.rows()->rowKind(row) == kl::views::TimelineRows::Kind::Engine && view.rows()->rowSize(row) > 0) {
                // 1000 ps busy, 200 ps idle, over and over: 83 %.
                QVERIFY2(std::abs(view.rowBusyShare(row) - 1000.0 / 1200.0) < 0.01, qPrintable(view.rowLabel(row)));
                QVERIFY(view.rowLabel(row).endsWith(QStringLiteral("83%")));
            }
        }
        // Half an instruction in the window: half of it counts.
        const auto row = *view.rows()->rowOf(1);
        const auto& tl = view.rows()->result().timeline;
        QCOMPARE(view.rows()->busyPs(row, tl.mainStartPs(1) + 500, tl.mainStartPs(1) + 1100), TimePs{500});
        // Across several: 500 + three whole ones + 200 of the fifth (1000 busy, 200 idle each).
        QCOMPARE(view.rows()->busyPs(row, tl.mainStartPs(1) + 500, tl.mainStartPs(1) + 5000), TimePs{3700});
    }

    void selectionDrawsFlowArrowsWithTheWaitCause() {
        TimelineView view;
        view.resize(1100, 300);
        view.setResult(kl::sim::makeSyntheticRun(100));
        view.selectInstruction(11); // waited on #10 (the synthetic run's producer chain)
        const auto& flows = view.flowArrows();
        QVERIFY(!flows.empty());
        QCOMPARE(flows.front().from, 10u);
        QCOMPARE(flows.front().to, 11u);
        QCOMPARE(flows.front().kind, kl::views::FlowArrow::Kind::WaitedOn);
        QVERIFY2(flows.front().label.contains(QStringLiteral("#10")) &&
                     flows.front().label.contains(QStringLiteral("engine busy")),
                 qPrintable(flows.front().label));
        const bool hasDependant = std::any_of(flows.begin(), flows.end(), [](const auto& f) {
            return f.kind == kl::views::FlowArrow::Kind::Dependant && f.from == 11u && f.to == 12u;
        });
        QVERIFY(hasDependant);
        view.selectInstruction(std::nullopt);
        QVERIFY(view.flowArrows().empty());
    }

    void selectionDrawsArrowsFromEveryProducer() {
        // Two loads feed an add; an unrelated load sits between them. The add waited on the later load only,
        // but depends on both: both get an arrow, the wait cause goes on the one that held it.
        kl::sim::test::TestIr t;
        const int a = t.buffer("a", "hbm", {128, 64});
        const int b = t.buffer("b", "hbm", {128, 8192});
        const int d = t.buffer("d", "hbm", {128, 64});
        const int sa = t.buffer("sa", "sbuf", {128, 64});
        const int sb = t.buffer("sb", "sbuf", {128, 8192});
        const int sd = t.buffer("sd", "sbuf", {128, 64});
        const int sc = t.buffer("sc", "sbuf", {128, 64});
        t.add("dma_copy", "dma", {t.whole(sa)}, {t.whole(a)}); // 0
        t.add("dma_copy", "dma", {t.whole(sd)}, {t.whole(d)}); // 1
        t.add("dma_copy", "dma", {t.whole(sb)}, {t.whole(b)}); // 2
        t.add("tensor_tensor", "vector", {t.whole(sc)}, {t.whole(sa), t.part(sb, 0, 128, 0, 64)},
              {{"op0", "add"}}); // 3
        auto ir = std::make_shared<const kl::sim::KernelIr>(t.load());
        auto run = kl::sim::Simulator::run(*ir, kl::sim::test::profile("trn1"));
        QVERIFY(run.has_value());
        TimelineView view;
        view.resize(1100, 300);
        view.setResult(*run);
        view.selectInstruction(3);
        const auto without = view.flowArrows(); // without the IR: only the recorded wait
        QCOMPARE(std::count_if(without.begin(), without.end(), [](const auto& f) { return f.to == 3u; }), 1);
        view.setIr(ir);
        const auto& flows = view.flowArrows();
        const auto into = [&](std::uint32_t from) {
            return std::find_if(flows.begin(), flows.end(),
                                [&](const auto& f) { return f.from == from && f.to == 3u; });
        };
        QVERIFY(into(0) != flows.end());
        QVERIFY(into(2) != flows.end());
        QVERIFY(into(1) == flows.end());                               // not an input
        QCOMPARE(into(2)->kind, kl::views::FlowArrow::Kind::WaitedOn); // the big load finished last
        QVERIFY2(into(2)->label.contains(QStringLiteral("#2")), qPrintable(into(2)->label));
        QCOMPARE(into(0)->kind, kl::views::FlowArrow::Kind::Producer);
        QVERIFY(into(0)->label.isEmpty());
        // The picture: painting with every arrow does not fail, and the producers are listed once each.
        QCOMPARE(std::count_if(flows.begin(), flows.end(), [](const auto& f) { return f.to == 3u; }), 2);
        view.grab();
    }

    void legendNamesTheColoursInUse() {
        TimelineView view;
        view.setResult(kl::sim::makeSyntheticRun(100));
        kl::views::TimelineLegend legend(&view);
        QCOMPARE(legend.entries().size(), kl::views::TimelineColours::kStyleCount);
        QCOMPARE(legend.entries().at(1).colour, view.colourOf(0)); // #0 runs on pe.mm: TensorE MultiplyMoving
        // The chooser and View > Colour by are one setting.
        legend.chooser()->setCurrentIndex(1);
        emit legend.chooser()->activated(1);
        QCOMPARE(view.colourBy(), TimelineView::ColourBy::Operation);
        QVERIFY(!legend.entries().isEmpty());
        const auto& tl = view.rows()->result().timeline;
        for (const auto& entry : legend.entries()) {
            bool found = false;
            for (std::uint32_t i = 0; i < tl.size() && !found; ++i) {
                found = view.colourOf(i) == entry.colour &&
                        entry.label.startsWith(QString::fromLatin1(kl::sim::opName(tl.op(i)).data()));
            }
            QVERIFY2(found, qPrintable(entry.label));
        }
        view.setColourBy(TimelineView::ColourBy::SourceLine);
        QCOMPARE(legend.chooser()->currentIndex(), 2);
        QVERIFY(legend.entries().front().label.startsWith(QStringLiteral("line ")));
    }

    void legendExplainsTheArrowsOfTheSelection() {
        TimelineView view;
        view.resize(1100, 300);
        view.setResult(kl::sim::makeSyntheticRun(100));
        kl::views::TimelineLegend legend(&view);
        legend.resize(1100, 30);
        QVERIFY(legend.arrowEntries().isEmpty()); // nothing selected, no arrows to explain
        view.selectInstruction(11);               // waited on #10 and has dependants
        const auto& flows = view.flowArrows();
        QVERIFY(!flows.empty());
        using Kind = kl::views::TimelineColours::FlowKind;
        for (const Kind kind : {Kind::WaitedOn, Kind::Producer, Kind::Dependant}) {
            const bool drawn = std::any_of(flows.begin(), flows.end(),
                                           [kind](const auto& f) { return f.kind == kind && f.from != f.to; });
            const auto label = kl::views::TimelineColours::flowLabel(kind);
            const auto entry = std::find_if(legend.arrowEntries().begin(), legend.arrowEntries().end(),
                                            [&label](const auto& e) { return e.label == label; });
            QCOMPARE(entry != legend.arrowEntries().end(), drawn); // a key for every kind drawn, none for others
            if (drawn) {
                QCOMPARE(entry->colour, kl::views::TimelineColours::flowColour(kind, view.palette()));
            }
        }
        QVERIFY(!legend.arrowEntries().isEmpty());
        legend.grab(); // paints the keys and the arrows side by side
        view.selectInstruction(std::nullopt);
        QVERIFY(legend.arrowEntries().isEmpty());
    }

    void manyDmaQueuesOpenFoldedAndTheUsersFoldIsKept() {
        // Sixteen independent loads spread over many queues: one row each would push the engines out of view.
        kl::sim::test::TestIr t;
        for (int k = 0; k < 16; ++k) {
            const int h = t.buffer("h" + std::to_string(k), "hbm", {128, 512});
            const int s = t.buffer("s" + std::to_string(k), "sbuf", {128, 512});
            t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(h)});
        }
        auto run = kl::sim::Simulator::run(t.load(), kl::sim::test::profile("trn1"));
        QVERIFY(run.has_value());
        const auto result = *run;
        std::set<std::uint16_t> queues;
        for (std::uint32_t i = 0; i < result->timeline.size(); ++i) {
            queues.insert(result->timeline.lane(i));
        }
        QVERIFY2(queues.size() > kl::views::TimelineRows::kQueuesOpenExpanded, "the loads must use many queues");
        TimelineView view;
        view.resize(1100, 300);
        view.setResult(result);
        QVERIFY(!view.rows()->dmaExpanded());
        std::size_t summary = 0;
        for (std::size_t row = 0; row < view.rows()->rowCount(); ++row) {
            summary += view.rows()->rowKind(row) == kl::views::TimelineRows::Kind::DmaSummary ? 1 : 0;
            QVERIFY(view.rows()->rowKind(row) != kl::views::TimelineRows::Kind::DmaQueue);
        }
        QCOMPARE(summary, std::size_t{1});
        // A run on two queues opens with them one row each.
        view.setResult(kl::sim::makeSyntheticRun(100));
        QVERIFY(view.rows()->dmaExpanded());
        // Once the user folds or unfolds, later runs keep the choice.
        std::size_t dmaRow = 0;
        while (view.rows()->rowKind(dmaRow) != kl::views::TimelineRows::Kind::DmaQueue) {
            ++dmaRow;
        }
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, view.rowCentreY(dmaRow)));
        QVERIFY(!view.rows()->dmaExpanded());
        view.setResult(kl::sim::makeSyntheticRun(100));
        QVERIFY(!view.rows()->dmaExpanded());
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, view.rowCentreY(dmaRow)));
        QVERIFY(view.rows()->dmaExpanded());
        view.setResult(result);
        QVERIFY(view.rows()->dmaExpanded());
    }

    void plotsShareTheTimelinesAxisToThePixel_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("scrollBar");
        QTest::newRow("1280 wide, scroll bar") << QSize(1100, 280) << true;
        QTest::newRow("1920 wide, scroll bar") << QSize(1700, 280) << true;
        QTest::newRow("1280 wide, no scroll bar") << QSize(1100, 900) << false;
        QTest::newRow("narrow, no scroll bar") << QSize(700, 900) << false;
    }

    void plotsShareTheTimelinesAxisToThePixel() {
        QFETCH(QSize, size);
        QFETCH(bool, scrollBar);
        TimelinePage page;
        page.resize(size);
        page.setRun(kl::sim::makeSyntheticRun(1000));
        page.show();
        // A low timeline box (it scrolls) or a tall one (all rows fit): the plots take the rest.
        const int timelineBox = scrollBar ? 110 : size.height() - 260;
        page.splitter()->setSizes({timelineBox, size.height() - timelineBox});
        QCoreApplication::processEvents();
        auto* scroll = page.findChild<QScrollArea*>();
        QCOMPARE(scroll->verticalScrollBar()->isVisible(), scrollBar);
        TimelineView* view = page.timeline();
        view->setVisibleRange(123'456, 3'456'789);
        page.plots()->plot()->replot();
        for (TimePs t : {TimePs{123'456}, TimePs{1'000'000}, TimePs{2'500'000}, TimePs{3'456'789}}) {
            const double onTimeline = pageX(page, view, view->xOf(t));
            const double onPlots = pageX(page, page.plots(), page.plots()->xOf(t));
            QVERIFY2(std::abs(onTimeline - onPlots) <= 0.5,
                     qPrintable(QStringLiteral("t=%1: timeline x %2, plots x %3").arg(t).arg(onTimeline).arg(onPlots)));
        }
        // The same ticks as the ruler, in the same unit.
        const auto ruler =
            kl::views::computeTimeTicks(view->visibleStart(), view->visibleEnd(),
                                        view->width() - TimelineView::kLabelWidth, TimelineView::kTickSpacingPx);
        const QVector<double> ticks = page.plots()->tickPositions();
        QCOMPARE(ticks.size(), static_cast<qsizetype>(ruler.ticks.size()));
        for (qsizetype k = 0; k < ticks.size(); ++k) {
            QCOMPARE(static_cast<TimePs>(ticks[k]), ruler.ticks[static_cast<std::size_t>(k)]);
        }
    }

    void draggedRangeIsShadedOnThePlots() {
        TimelinePage page;
        page.resize(1100, 600);
        page.setRun(kl::sim::makeSyntheticRun(1000));
        page.show();
        TimelineView* view = page.timeline();
        const int y = view->rowCentreY(1);
        QTest::mousePress(view, Qt::LeftButton, {}, QPoint(300, y));
        QTest::mouseMove(view, QPoint(500, y));
        QTest::mouseRelease(view, Qt::LeftButton, {}, QPoint(500, y));
        const auto [s0, s1] = page.plots()->shadedRangePs();
        QCOMPARE(static_cast<TimePs>(s0), view->timeAt(300));
        QCOMPARE(static_cast<TimePs>(s1), view->timeAt(500));
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(page.plots()->shadedRangePs().second, 0.0);
    }

    void plotLegendSitsOutsideTheData() {
        kl::views::RunPlots plots;
        plots.resize(900, 300);
        plots.setResult(kl::sim::makeSyntheticRun(1000));
        plots.show();
        plots.plot()->replot();
        const QRect legend = plots.legend()->outerRect();
        for (QCPAxisRect* rect : plots.plot()->axisRects()) {
            QVERIFY(!legend.intersects(rect->rect()));
        }
        for (int i = 0; i < plots.plot()->graphCount(); ++i) {
            QVERIFY(plots.legend()->hasItemWithPlottable(plots.plot()->graph(i)));
        }
    }

    void figuresCarryUnits_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("bytes") << 512.0 << QStringLiteral("512 B");
        QTest::newRow("kB") << 4096.0 << QStringLiteral("4.1 kB");
        QTest::newRow("issue's DMA bytes") << 181261434.0 << QStringLiteral("181.3 MB");
        QTest::newRow("GB") << 2.5e9 << QStringLiteral("2.5 GB");
    }

    void figuresCarryUnits() {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(kl::views::formatBytes(bytes)), text);
    }

    void inspectorTimesAreAsPreciseAsTheSpan() {
        // 218 ns instructions back to back: #31660 starts past 1.38 ms.
        auto run = kl::sim::makeSyntheticRun(40'000, 218'000, 0);
        const std::uint32_t index = 31'660;
        const auto& tl = run->timeline;
        QVERIFY(tl.mainStartPs(index) > 1'370'000'000 && tl.mainStartPs(index) < 1'390'000'000);
        kl::views::InspectorPane inspector;
        inspector.setRun(nullptr, run);
        inspector.showInstruction(index);
        const QString text = inspector.toPlainText();
        const auto field = [&](const QString& key) {
            // The table's plain text puts each value on the line after its key.
            const QStringList lines = text.split(QLatin1Char('\n'));
            const auto at = lines.indexOf(key);
            return at >= 0 && at + 1 < lines.size() ? lines[at + 1].trimmed() : QString();
        };
        const QString start = field(QStringLiteral("Start"));
        const QString end = field(QStringLiteral("End"));
        QVERIFY2(!start.isEmpty() && start != end, qPrintable(text));
        QCOMPARE(start, QString::fromStdString(kl::views::formatTime(tl.mainStartPs(index), 1000)));
        QVERIFY2(start.endsWith(QStringLiteral(" ms")) && start.size() >= 11, qPrintable(start)); // 1.380xxx ms
        QCOMPARE(field(QStringLiteral("Duration")), QStringLiteral("218.00 ns"));
    }

    void engineColoursStandOutOnBothThemes() {
        // WCAG 1.4.11: graphical objects need 3:1 against what surrounds them.
        const QColor lightBase(255, 255, 255);
        const QColor darkBase(28, 30, 35); // kl::app's dark palette base
        for (int slot = 0; slot < kl::views::TimelineColours::kStyleCount; ++slot) {
            const QString name = kl::views::TimelineColours::slotLabel(slot);
            const double light =
                kl::views::contrastRatio(kl::views::TimelineColours::slotColour(slot, false), lightBase);
            const double dark = kl::views::contrastRatio(kl::views::TimelineColours::slotColour(slot, true), darkBase);
            QVERIFY2(light >= 3.0, qPrintable(QStringLiteral("%1 on light: %2").arg(name).arg(light)));
            QVERIFY2(dark >= 3.0, qPrintable(QStringLiteral("%1 on dark: %2").arg(name).arg(dark)));
        }
        // The two TensorE rows must not be one colour.
        QVERIFY(kl::views::TimelineColours::slotColour(0, true) != kl::views::TimelineColours::slotColour(1, true));
        QCOMPARE(kl::views::contrastRatio(Qt::black, Qt::white), 21.0);
    }
};

QTEST_MAIN(TimelineReadabilityTest)
#include "TimelineReadabilityTest.moc"

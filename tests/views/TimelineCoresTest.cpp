#include "timeline/InspectorPane.h"
#include "timeline/TimelineLegend.h"
#include "timeline/TimelineView.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using kl::sim::TimePs;
using kl::views::TimelineRows;
using kl::views::TimelineView;

namespace {

constexpr std::uint32_t kPerCore = kl::sim::kComputeLanes + 2; // two DMA queues per core

/// A hand-made LNC 2 run: on each core a DMA load, a matmul (with its LoadStationary) and a vector op; core 1's
/// work starts 500 ps after core 0's. A spill on core 0's first queue and a reload on core 1's.
std::shared_ptr<kl::sim::SimResult> twoCoreRun() {
    auto r = std::make_shared<kl::sim::SimResult>();
    r->kernelName = "lnc";
    r->files = {"kernel.py"};
    r->lnc = 2;
    r->lanesPerCore = kPerCore;
    r->laneCount = 2 * kPerCore;
    r->cores.resize(2);
    auto& tl = r->timeline;
    for (std::uint16_t core = 0; core < 2; ++core) {
        const auto base = static_cast<std::uint16_t>(core * kPerCore);
        const TimePs t = core * 500;
        kl::sim::TimelineData::Record dma;
        dma.irId = static_cast<std::uint32_t>(tl.size());
        dma.mainStartPs = t;
        dma.endPs = t + 1000;
        dma.lane = static_cast<std::uint16_t>(base + kl::sim::kComputeLanes);
        dma.op = kl::sim::Op::DmaCopy;
        dma.loc = {0, 10};
        tl.append(dma);
        kl::sim::TimelineData::Record mm = dma;
        mm.irId = static_cast<std::uint32_t>(tl.size());
        mm.lsStartPs = t + 1000;
        mm.lsEndPs = t + 1200;
        mm.mainStartPs = t + 1200;
        mm.endPs = t + 2200;
        mm.lane = static_cast<std::uint16_t>(base + 1);
        mm.op = kl::sim::Op::NcMatmul;
        mm.loc = {0, 20};
        tl.append(mm);
        kl::sim::TimelineData::Record vec = dma;
        vec.irId = static_cast<std::uint32_t>(tl.size());
        vec.mainStartPs = t + 2200;
        vec.endPs = t + 3000;
        vec.lane = static_cast<std::uint16_t>(base + 2);
        vec.op = kl::sim::Op::TensorTensor;
        vec.loc = {0, 30};
        tl.append(vec);
    }
    tl.freeze();
    r->spills.transfers.push_back({3000, 3600, 4096, 7, 2, static_cast<std::uint16_t>(kl::sim::kComputeLanes),
                                   kl::sim::DmaKind::Spill, kl::sim::Memory::Sbuf});
    r->spills.transfers.push_back({3600, 4400, 4096, 7, 5,
                                   static_cast<std::uint16_t>(kPerCore + kl::sim::kComputeLanes + 1),
                                   kl::sim::DmaKind::Reload, kl::sim::Memory::Sbuf});
    r->spills.tiles.push_back({7, "acc", {0, 12}});
    return r;
}

} // namespace

class TimelineCoresTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TimelineView> makeView() {
        auto view = std::make_unique<TimelineView>();
        view->resize(1120, 420);
        view->setResult(twoCoreRun());
        view->show();
        return view;
    }

private slots:
    void coresAreGroupsUnderHeaders() {
        auto view = makeView();
        const TimelineRows& rows = *view->rows();
        QCOMPARE(rows.coreCount(), 2u);
        QCOMPARE(rows.rowKind(0), TimelineRows::Kind::CoreHeader);
        QCOMPARE(QString::fromStdString(rows.rowName(0)), QStringLiteral("core 0"));
        // Each core: its five compute lanes and the queues it used (one queue on core 0, two on core 1).
        QCOMPARE(rows.rowKind(7), TimelineRows::Kind::CoreHeader);
        QCOMPARE(rows.rowCore(7), 1u);
        QCOMPARE(rows.rowCount(), std::size_t{1 + 6 + 1 + 7});
        QCOMPARE(QString::fromStdString(rows.rowName(8)), QStringLiteral("c1.pe.ls"));
        for (std::size_t row = 1; row < 7; ++row) {
            QCOMPARE(rows.rowCore(row), 0u);
        }
        // Core 1's instructions are on core 1's rows, its LoadStationary on its own LS row.
        QCOMPARE(rows.rowOf(5).value(), std::size_t{10}); // c1.vector
        QCOMPARE(rows.rowSize(8), std::size_t{1});
        QCOMPARE(rows.instructionAt(8, 0), 4u);
        QCOMPARE(rows.rowSize(1), std::size_t{1});
        QCOMPARE(rows.instructionAt(1, 0), 1u);
    }

    void clickingAHeaderFoldsItsCore() {
        auto view = makeView();
        const std::size_t all = view->rows()->rowCount();
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(20, view->rowCentreY(0)));
        QVERIFY(!view->rows()->coreExpanded(0));
        QCOMPARE(view->rows()->rowCount(), all - 6);
        QCOMPARE(view->rows()->rowKind(1), TimelineRows::Kind::CoreHeader);
        QCOMPARE(view->rows()->rowCore(1), 1u);
        QVERIFY(!view->rows()->rowOf(2).has_value()); // core 0's vector op is folded away
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(20, view->rowCentreY(0)));
        QVERIFY(view->rows()->coreExpanded(0));
        QCOMPARE(view->rows()->rowCount(), all);
    }

    void busySharesAndDmaSummaryArePerCore() {
        TimelineRows rows(twoCoreRun());
        QCOMPARE(rows.busyPs(10, 0, 10'000), TimePs{800}); // c1.vector: one 800 ps op
        QCOMPARE(rows.busyPs(0, 0, 10'000), TimePs{0});    // a header is never busy
        rows.setDmaExpanded(false);
        // One summary row per core, each counting only its own queues.
        QCOMPARE(rows.rowKind(6), TimelineRows::Kind::DmaSummary);
        QCOMPARE(QString::fromStdString(rows.rowName(6)), QStringLiteral("c0.dma \u00d71") /* one queue on core 0 */);
        QCOMPARE(rows.busyPs(6, 0, 10'000), TimePs{1000});
        QCOMPARE(rows.rowKind(13), TimelineRows::Kind::DmaSummary);
        QCOMPARE(rows.rowOf(3).value(), std::size_t{13});
    }

    void spillsAreDrawnOnTheirQueueWithTheirOwnColourAndText() {
        auto view = makeView();
        view->setVisibleRange(0, 5000);
        std::vector<kl::views::TimelineMark> marks;
        view->rows()->buildMarks(0, 5000, 1000, 2, marks);
        int spillMarks = 0;
        for (const auto& mark : marks) {
            if (mark.spill != kl::views::kNoInstruction) {
                ++spillMarks;
                QCOMPARE(mark.first, kl::views::kNoInstruction);
                QCOMPARE(view->rows()->rowKind(mark.row), TimelineRows::Kind::DmaQueue);
            }
        }
        QCOMPARE(spillMarks, 2);
        QCOMPARE(view->rows()->spillAt(6, 3300, 0).value(), 0u); // core 0's queue row
        QVERIFY(!view->rows()->spillAt(6, 2500, 0).has_value());
        const QPoint onSpill(static_cast<int>(view->xOf(3300)), view->rowCentreY(6));
        QCOMPARE(view->spillAt(onSpill).value(), 0u);
        const QString spill = view->spillTooltip(0);
        QVERIFY2(spill.contains(QStringLiteral("Spill SBUF")), qPrintable(spill));
        QVERIFY2(spill.contains(QStringLiteral("'acc'")) && spill.contains(QStringLiteral("kernel.py:12")),
                 qPrintable(spill));
        const QString reload = view->spillTooltip(1);
        QVERIFY2(reload.contains(QStringLiteral("Reload")) && reload.contains(QStringLiteral("c1.dma.q1")),
                 qPrintable(reload));
        kl::views::TimelineLegend legend(view.get());
        legend.refresh();
        int spillEntries = 0;
        for (const auto& entry : legend.entries()) {
            spillEntries +=
                entry.label.contains(QStringLiteral("Spill")) || entry.label.contains(QStringLiteral("Reload"));
        }
        QCOMPARE(spillEntries, 2);
        QVERIFY(legend.entries().front().colour != legend.entries().back().colour);
    }

    void clickingASpillSelectsItIntoTheInspector() {
        auto view = makeView();
        view->setVisibleRange(0, 5000);
        view->selectInstruction(5u);
        QSignalSpy spills(view.get(), &TimelineView::spillSelected);
        QSignalSpy instructions(view.get(), &TimelineView::instructionSelected);
        const QPoint onSpill(static_cast<int>(view->xOf(3300)), view->rowCentreY(6));
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, onSpill);
        QCOMPARE(spills.count(), 1);
        QCOMPARE(spills.front().front().toLongLong(), 0LL);
        QCOMPARE(view->selectedSpill().value_or(99), 0u);
        QVERIFY(!view->selectedInstruction().has_value()); // one selection at a time
        QCOMPARE(instructions.back().front().toLongLong(), -1LL);
        view->grab(); // paints the selected spill's outline

        kl::views::InspectorPane inspector;
        inspector.setRun(nullptr, twoCoreRun()); // the same run the view shows
        inspector.showSpill(0);
        const QString html = inspector.toHtml();
        const QString text = inspector.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Spill SBUF")) && text.contains(QStringLiteral("acc")), qPrintable(text));
        QVERIFY2(html.contains(QStringLiteral("line:12")), qPrintable(html)); // the declaration is a link
        QVERIFY2(html.contains(QStringLiteral("instr:2")), qPrintable(html)); // and the instruction it made room for
        inspector.showSpill(99);                                              // out of range: the placeholder
        QVERIFY(inspector.toPlainText().contains(QStringLiteral("Click an instruction")));

        // Clicking an instruction again leaves the spill.
        view->selectInstruction(5u);
        QVERIFY(!view->selectedSpill().has_value());
    }

    void selectingAnInstructionOfCoreOneWorks() {
        auto view = makeView();
        view->selectInstruction(5u);
        QCOMPARE(view->selectedInstruction().value_or(99), 5u);
    }
};

QTEST_MAIN(TimelineCoresTest)
#include "TimelineCoresTest.moc"

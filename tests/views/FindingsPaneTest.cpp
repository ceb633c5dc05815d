// The Findings dock on its own: the model sorts as a reader expects, selecting and Enter ask for the evidence,
// A and D act only with a review, dismissed findings are greyed with their reason, and the roofline plot draws
// both roofs and the kernel's point.
#include "findings/FindingsModel.h"
#include "findings/FindingsPane.h"
#include "findings/RooflinePlot.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using kl::views::FindingsModel;
using kl::views::FindingsPane;
namespace fd = kl::core::findings;

namespace {

fd::Finding finding(const char* rule, kl::core::Severity severity, const char* title) {
    fd::Finding f;
    f.rule = rule;
    f.severity = severity;
    f.title = title;
    f.rubricItem = "perf.dma";
    f.figures.push_back({"small_transfer_time_pct", 83.5, "%", 25.0});
    f.suggestion = "Move at least 2 KiB per partition.";
    return f;
}

std::vector<fd::Finding> sample() {
    using kl::core::Severity;
    return {finding("roofline", Severity::Nit, "Roofline: memory-bound"),
            finding("tail-not-handled", Severity::Blocking, "Tail not handled"),
            finding("dma-small-transfers", Severity::Major, "Small DMA transfers"),
            finding("engine-bound", Severity::Minor, "VectorE-bound")};
}

QStringList column(const QAbstractItemModel* model, int col) {
    QStringList out;
    for (int row = 0; row < model->rowCount(); ++row) {
        out << model->index(row, col).data().toString();
    }
    return out;
}

} // namespace

class FindingsPaneTest : public QObject {
    Q_OBJECT

private slots:
    void modelSortsBySeverityOrderNotByName() {
        FindingsPane pane;
        QAbstractItemModelTester tester(pane.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(pane.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        pane.setFindings(sample());
        QCOMPARE(column(pane.proxy(), FindingsModel::Severity),
                 (QStringList{"blocking", "major", "minor", "nit"})); // not alphabetical
        pane.table()->sortByColumn(FindingsModel::Severity, Qt::DescendingOrder);
        QCOMPARE(column(pane.proxy(), FindingsModel::Severity).first(), QStringLiteral("nit"));
        pane.table()->sortByColumn(FindingsModel::Rule, Qt::AscendingOrder);
        QCOMPARE(column(pane.proxy(), FindingsModel::Rule),
                 (QStringList{"dma-small-transfers", "engine-bound", "roofline", "tail-not-handled"}));
        QCOMPARE(pane.model()->index(2, FindingsModel::Figures).data().toString(),
                 QStringLiteral("small_transfer_time_pct 83.5 % (threshold 25 %)"));
    }

    void keysOfARulesSecondFindingAreNumbered() {
        FindingsModel model;
        model.setFindings({finding("redundant-loads", kl::core::Severity::Minor, "a"),
                           finding("redundant-loads", kl::core::Severity::Minor, "b")});
        QCOMPARE(model.index(0, 0).data(FindingsModel::KeyRole).toString(), QStringLiteral("redundant-loads"));
        QCOMPARE(model.index(1, 0).data(FindingsModel::KeyRole).toString(), QStringLiteral("redundant-loads#2"));
    }

    void selectingAndEnterAskForTheEvidence() {
        FindingsPane pane;
        pane.resize(900, 300);
        pane.show();
        pane.setFindings(sample());
        QSignalSpy evidence(&pane, &FindingsPane::evidenceRequested);
        QVERIFY(pane.selectKey(QStringLiteral("dma-small-transfers")));
        QCOMPARE(evidence.count(), 1);
        QCOMPARE(evidence.at(0).at(0).toString(), QStringLiteral("dma-small-transfers"));
        pane.table()->setFocus();
        QTest::keyClick(pane.table(), Qt::Key_Return);
        QCOMPARE(evidence.count(), 2);
        QCOMPARE(evidence.at(1).at(0).toString(), QStringLiteral("dma-small-transfers"));

        // A mouse click makes a row current before it selects it: the evidence must still follow the click.
        const QModelIndex last = pane.proxy()->index(3, FindingsModel::Title); // severity order: nit, the roofline
        QTest::mouseClick(pane.table()->viewport(), Qt::LeftButton, {}, pane.table()->visualRect(last).center());
        QCOMPARE(evidence.count(), 3);
        QCOMPARE(evidence.at(2).at(0).toString(), QStringLiteral("roofline"));
        QCOMPARE(pane.selectedKey(), QStringLiteral("roofline"));
    }

    void acceptAndDismissNeedAReview() {
        FindingsPane pane;
        pane.show();
        pane.setFindings(sample());
        QSignalSpy accept(&pane, &FindingsPane::acceptRequested);
        QSignalSpy dismiss(&pane, &FindingsPane::dismissRequested);
        QVERIFY(pane.selectKey(QStringLiteral("roofline")));
        QVERIFY(!pane.acceptButton()->isEnabled());
        QVERIFY(!pane.dismissButton()->isEnabled());
        QVERIFY(pane.acceptButton()->toolTip().contains(QStringLiteral("Open a review file")));
        QTest::keyClick(pane.table(), Qt::Key_A);
        QTest::keyClick(pane.table(), Qt::Key_D);
        QCOMPARE(accept.count(), 0);
        QCOMPARE(dismiss.count(), 0);
        QCOMPARE(pane.selectedKey(), QStringLiteral("roofline")); // A and D did not type-search to another row

        pane.setReviewAvailable(true);
        QVERIFY(pane.acceptButton()->isEnabled());
        QTest::keyClick(pane.table(), Qt::Key_A);
        QCOMPARE(accept.count(), 1);
        QCOMPARE(accept.at(0).at(0).toString(), QStringLiteral("roofline"));
        QTest::keyClick(pane.table(), Qt::Key_D);
        QCOMPARE(dismiss.count(), 1);
    }

    void dismissedFindingsAreGreyedWithTheirReasonAndCanBeRestored() {
        FindingsPane pane;
        pane.show();
        pane.setReviewAvailable(true);
        auto findings = sample();
        pane.setFindings(findings);
        kl::core::FindingDismissal d;
        d.findingKey = "engine-bound";
        d.reason = "VectorE work is the reference's";
        d.author = "ana";
        pane.setDecisions(fd::decisionsFor(findings, {}, {d}));
        const int row = pane.model()->rowOfKey(QStringLiteral("engine-bound"));
        const QModelIndex status = pane.model()->index(row, FindingsModel::Status);
        QVERIFY(status.data(FindingsModel::DismissedRole).toBool());
        QVERIFY(status.data().toString().contains(QStringLiteral("VectorE work is the reference's")));
        QCOMPARE(status.data(Qt::ForegroundRole).value<QColor>(), QPalette().color(QPalette::Disabled, QPalette::Text));
        QVERIFY(pane.selectKey(QStringLiteral("engine-bound")));
        QVERIFY(!pane.acceptButton()->isEnabled());
        QVERIFY(pane.restoreButton()->isEnabled());
        QSignalSpy restore(&pane, &FindingsPane::restoreRequested);
        pane.restoreButton()->click();
        QCOMPARE(restore.count(), 1);
        QVERIFY(pane.summary()->text().contains(QStringLiteral("1 dismissed")));
    }

    void rooflinePlotHasBothRoofsAndThePoint() {
        kl::views::RooflinePlot plot;
        plot.resize(700, 400);
        fd::RooflinePoint p;
        p.flops = 1e9;
        p.hbmBytes = 2e6;
        p.ns = 1e5;
        p.peakFlopsPerNs = 95'000;
        p.roofBytesPerNs = 272;
        p.ridge = p.peakFlopsPerNs / p.roofBytesPerNs;
        p.achievedFlopsPerNs = p.flops / p.ns;
        p.intensity = p.flops / p.hbmBytes;
        p.computeBound = p.intensity >= p.ridge; // 500 FLOP/B against a ridge of 349
        p.attainedPct = 100.0 * p.achievedFlopsPerNs / p.peakFlopsPerNs;
        plot.setPoint(p);
        // Memory roof: 272 GB/s times intensity, up to the ridge where it meets the compute roof (95 TFLOP/s).
        QCOMPARE(plot.memoryRoof()->data()->size(), 2);
        QCOMPARE(plot.computeRoof()->data()->size(), 2);
        const auto ridgeEnd = plot.memoryRoof()->data()->at(1);
        QCOMPARE(ridgeEnd->key, p.ridge);
        QCOMPARE(ridgeEnd->value, 95e12);
        const auto left = plot.memoryRoof()->data()->at(0);
        QVERIFY(qFuzzyCompare(left->value, 272e9 * left->key));
        QCOMPARE(plot.computeRoof()->data()->at(1)->value, 95e12);
        QCOMPARE(plot.kernelPoint()->data()->size(), 1);
        QCOMPARE(plot.kernelPoint()->data()->at(0)->key, 500.0);
        QCOMPARE(plot.kernelPoint()->data()->at(0)->value, 1e13);
        QVERIFY(plot.memoryRoof()->name().contains(QStringLiteral("272 GB/s")));
        QVERIFY(plot.computeRoof()->name().contains(QStringLiteral("95 TFLOP/s")));
        QCOMPARE(plot.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(plot.plot()->xAxis->label().contains(QStringLiteral("FLOP per HBM byte")));
        QVERIFY(plot.plot()->yAxis->label().contains(QStringLiteral("FLOP/s")));
        QVERIFY(plot.plot()->xAxis->range().contains(p.intensity));
        QVERIFY(plot.plot()->yAxis->range().contains(1e13));
        QVERIFY2(plot.caption().contains(QStringLiteral("11 % of the compute roof")), qPrintable(plot.caption()));

        p.flops = 0; // a kernel without matmuls has no place on the plot, and says so
        plot.setPoint(p);
        QCOMPARE(plot.kernelPoint()->data()->size(), 0);
        QCOMPARE(plot.memoryRoof()->data()->size(), 2);
        QVERIFY(plot.caption().contains(QStringLiteral("No matmul FLOPs")));
    }
};

QTEST_MAIN(FindingsPaneTest)
#include "FindingsPaneTest.moc"

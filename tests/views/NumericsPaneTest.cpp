// The Numerics dock on its own, filled from the contract's fixture documents: both models pass
// QAbstractItemModelTester and show every comparison with failing rows marked; the heat map has the fixture's
// cells and the tooltip names the worst element, its value and expected value; the histogram has one bar per bin;
// choosing a top-error instruction emits its index and line; the settings dialog gives the options typed in.
#include "numerics/NumericsModel.h"
#include "numerics/NumericsPane.h"
#include "numerics/NumericsPlots.h"
#include "numerics/NumericsReader.h"
#include "numerics/NumericsSettingsDialog.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using kl::views::NumericsInstructionModel;
using kl::views::NumericsModel;
using kl::views::NumericsPane;

namespace {

std::shared_ptr<const kl::core::NumericsResult> fixture(const char* name) {
    auto r = kl::core::readNumericsFile(std::string(KL_SOURCE_DIR) + "/tests/core/data/numerics/" + name);
    if (!r) {
        qFatal("%s", kl::formatError(r.error()).c_str());
    }
    return std::make_shared<const kl::core::NumericsResult>(std::move(*r));
}

} // namespace

class NumericsPaneTest : public QObject {
    Q_OBJECT
private slots:
    void modelsPassTheTesterAndListEveryComparison() {
        NumericsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        NumericsInstructionModel instructions;
        QAbstractItemModelTester tester2(&instructions, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(fixture("ragged_fail.json"));
        instructions.setResult(fixture("ragged_fail.json"));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(NumericsModel::ColumnCount));
        QCOMPARE(model.index(0, NumericsModel::Comparison).data().toString(), QStringLiteral("NKI vs exact"));
        QCOMPARE(model.index(0, NumericsModel::Output).data().toString(), QStringLiteral("out (float32)"));
        QCOMPARE(model.index(0, NumericsModel::MaxAbs).data().toString(), QStringLiteral("37.5"));
        QCOMPARE(model.index(0, NumericsModel::MaxRel).data().toString(), QStringLiteral("inf"));
        QCOMPARE(model.index(0, NumericsModel::Mismatches).data().toString(), QStringLiteral("1536 (2.4 %)"));
        QCOMPARE(model.index(0, NumericsModel::Result).data().toString(), QStringLiteral("FAIL"));
        QVERIFY(model.index(0, NumericsModel::Result).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.index(1, NumericsModel::Result).data().toString(), QStringLiteral("pass"));
        QVERIFY(!model.index(1, NumericsModel::Result).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.index(0, NumericsModel::Tolerance).data().toString(),
                 QStringLiteral("rtol 1.3e-06, atol 1e-05"));
        QCOMPARE(instructions.rowCount(), 2);
        QCOMPARE(instructions.index(0, NumericsInstructionModel::Location).data().toString(),
                 QStringLiteral("kernel.py:27"));
        model.setResult(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void heatMapHasTheFixturesCellsAndTooltip() {
        kl::views::NumericsHeatMap map;
        map.resize(500, 300);
        const auto result = fixture("matmul_pass.json");
        map.setOutput(result, 0);
        QCOMPARE(map.colorMap()->data()->keySize(), 8);   // columns of cells
        QCOMPARE(map.colorMap()->data()->valueSize(), 4); // rows of cells
        // Cell (1, 2) has 0.001 * 2 * 3 = 0.006: log10 on the scale.
        QVERIFY(qAbs(map.colorMap()->data()->cell(2, 1) - std::log10(0.006)) < 1e-9);
        // Cell (0, 4) covers rows 0-31 and columns 256-319 of the [128, 512] output.
        const QString tip = map.tooltipForCell(0, 4);
        QVERIFY2(tip.contains(QStringLiteral("rows 0-31, columns 256-319")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Worst element [")), qPrintable(tip));
        QVERIFY(map.tooltipForCell(4, 0).isEmpty()); // outside
        QVERIFY(map.tooltipForCell(-1, 0).isEmpty());
    }

    void tooltipShowsValueAndExpectedOfAListedWorstElement() {
        // Make the document's first worst element the worst of cell (0, 4) and ask for its tooltip.
        auto doc = std::make_shared<kl::core::NumericsResult>(*fixture("matmul_pass.json"));
        doc->outputs[0].heatmap->worst[4] = 17 * 512 + 300;
        kl::views::NumericsHeatMap map;
        map.setOutput(doc, 0);
        const QString tip = map.tooltipForCell(0, 4);
        QVERIFY2(tip.contains(QStringLiteral("Worst element [17, 300]")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("value 8.0625, expected 8")), qPrintable(tip));
        QCOMPARE(kl::views::unravelIndex(17 * 512 + 300, {128, 512}), (std::vector<std::int64_t>{17, 300}));
        QCOMPARE(kl::views::unravelIndex(7, {2, 2, 2}), (std::vector<std::int64_t>{1, 1, 1}));
    }

    void hoveringFindsTheCellUnderTheMouse() {
        kl::views::NumericsHeatMap map;
        map.resize(600, 400);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        map.setOutput(fixture("ragged_fail.json"), 0);
        auto* plot = map.plot();
        plot->replot();
        const QPoint centre(plot->xAxis->coordToPixel(7), plot->yAxis->coordToPixel(2));
        const auto cell = map.cellAt(centre);
        QVERIFY(cell.has_value());
        QCOMPARE(cell->first, 2);
        QCOMPARE(cell->second, 7);
        QVERIFY(map.tooltipForCell(cell->first, cell->second).contains(QStringLiteral("|error| 30")));
        // A non-finite cell is NaN on the map (drawn in its own colour), a finite one a log10.
        auto doc = std::make_shared<kl::core::NumericsResult>(*fixture("ragged_fail.json"));
        doc->outputs[0].heatmap->absError[0] = INFINITY;
        map.setOutput(doc, 0);
        QVERIFY(std::isnan(map.colorMap()->data()->cell(0, 0)));
        QCOMPARE(map.colorMap()->data()->cell(7, 0), std::log10(30.0));
        QVERIFY(map.plot()->xAxis->label().contains(QStringLiteral("cells of 63")));
    }

    void histogramHasOneBarPerBin() {
        kl::views::NumericsHistogramPlot plot;
        const auto result = fixture("matmul_pass.json");
        plot.setOutput(&result->outputs[0]);
        QCOMPARE(plot.bars()->data()->size(), 5);
        QCOMPARE(plot.bars()->data()->at(3)->value, 40000.0);
        QCOMPARE(plot.bars()->data()->at(3)->key, -2.5);
        QVERIFY(plot.plot()->xAxis->label().contains(QStringLiteral("3916 elements exact")));
        plot.setOutput(nullptr);
        QCOMPARE(plot.bars()->data()->size(), 0);
    }

    void paneShowsTheFailingOutputAndEmitsInstructions() {
        NumericsPane pane;
        QSignalSpy spy(&pane, &NumericsPane::instructionActivated);
        pane.setRuns({{QStringLiteral("Run just made"), fixture("ragged_fail.json")},
                      {QStringLiteral("Stored run 1"), fixture("matmul_pass.json")}});
        QVERIFY(pane.runSelector()->isVisibleTo(&pane));
        QCOMPARE(pane.runSelector()->count(), 2);
        QVERIFY2(pane.summary()->text().contains(QStringLiteral("2 of 3 comparisons FAIL")),
                 qPrintable(pane.summary()->text()));
        QCOMPARE(pane.table()->currentIndex().row(), 0);
        QCOMPARE(pane.heatMap()->colorMap()->data()->keySize(), 8);
        pane.instructions()->setCurrentIndex(pane.instructionModel()->index(1, 0));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), 4LL);
        QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("kernel.py"));
        QCOMPARE(spy.at(0).at(2).toInt(), 21);
        pane.runSelector()->setCurrentIndex(1); // the stored passing run
        QVERIFY(pane.summary()->text().contains(QStringLiteral("all 3 comparisons pass")));
        QCOMPARE(pane.instructionModel()->index(0, NumericsInstructionModel::Location).data().toString(),
                 QStringLiteral("kernel.py:42"));
        pane.setBusy(true);
        QSignalSpy cancel(&pane, &NumericsPane::cancelRequested);
        pane.cancelButton()->click();
        QCOMPARE(cancel.count(), 1);
    }

    void settingsDialogGivesTheOptions() {
        kl::views::NumericsSettingsDialog dialog;
        kl::core::NumericsOptions in;
        in.inputs = "bf16-stress";
        in.seed = 7;
        in.cudaNumerics = "split-k:4";
        in.rtol = 0.01;
        dialog.setOptions(in);
        const auto out = dialog.options();
        QVERIFY(out.enabled);
        QCOMPARE(QString::fromStdString(out.inputs), QStringLiteral("bf16-stress"));
        QCOMPARE(*out.seed, 7LL);
        QCOMPARE(QString::fromStdString(out.cudaNumerics), QStringLiteral("split-k:4"));
        QCOMPARE(*out.rtol, 0.01);
        QVERIFY(!out.atol);
        QVERIFY(out.reference.empty());
    }
};

QTEST_MAIN(NumericsPaneTest)
#include "NumericsPaneTest.moc"

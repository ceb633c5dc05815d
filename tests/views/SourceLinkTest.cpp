// QTest for the CUDA | NKI panes linked to each other and to the timeline (app/gui/SourceLinkController).
#include "gui/SourceLinkController.h"

#include "gui/RunDisplay.h"

#include "result/SyntheticRun.h"
#include "source/FindBar.h"
#include "source/HeatMargin.h"
#include "source/HotLinesModel.h"
#include "source/HotLinesView.h"
#include "source/LineCost.h"
#include "source/LinkPainter.h"
#include "source/SourcePane.h"
#include "timeline/TimelineView.h"

#include <Qsci/qsciscintilla.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using kl::app::SourceLinkController;
using kl::views::SourcePane;
using kl::views::TimelineView;

namespace {

/// 30 CUDA lines; line 5 opens a loop that ends on line 8.
QString cudaText() {
    QStringList lines;
    for (int i = 1; i <= 30; ++i) {
        lines << QStringLiteral("int v%1 = %1;").arg(i);
    }
    lines[4] = QStringLiteral("for (int i = 0; i < 4; ++i) {");
    lines[7] = QStringLiteral("}");
    return lines.join(QLatin1Char('\n'));
}

/// 40 NKI lines; the synthetic run records its instructions on lines 10..16. Line 12 links CUDA 3-4 and
/// line 14 CUDA 9 by `# cuda:` comments; line 30 has a malformed one; line 20 opens a loop.
QString nkiText() {
    QStringList lines;
    for (int i = 1; i <= 40; ++i) {
        lines << QStringLiteral("    x%1 = nl.load(a)").arg(i);
    }
    lines[0] = QStringLiteral("def kernel(a):");
    lines[11] += QStringLiteral("  # cuda: 3-4");
    lines[13] += QStringLiteral("  # cuda: 9");
    lines[29] += QStringLiteral("  # cuda: 9-2");
    lines[19] = QStringLiteral("    for i in nl.affine_range(4):");
    lines[20] = QStringLiteral("        y = nl.load(a)");
    return lines.join(QLatin1Char('\n'));
}

void writeFile(const QString& path, const QString& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.toUtf8());
}

/// dir/pkg/ops/kernel.py (the NKI text) and an empty dir/pkg/util; returns the kernel's path.
QString makePackage(const QTemporaryDir& dir) {
    QDir(dir.path()).mkpath(QStringLiteral("pkg/ops"));
    QDir(dir.path()).mkpath(QStringLiteral("pkg/util"));
    const QString kernelPath = dir.path() + QStringLiteral("/pkg/ops/kernel.py");
    writeFile(kernelPath, nkiText());
    return kernelPath;
}

std::vector<std::uint32_t> onLines(const kl::sim::SimResult& run, int first, int last) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < run.timeline.size(); ++i) {
        const int line = static_cast<int>(run.timeline.line(i));
        if (line >= first && line <= last) {
            out.push_back(static_cast<std::uint32_t>(i));
        }
    }
    return out;
}

} // namespace

class SourceLinkTest : public QObject {
    Q_OBJECT

    struct Fixture {
        SourcePane cuda{SourcePane::Language::Cuda, QStringLiteral("CUDA")};
        SourcePane nki{SourcePane::Language::Python, QStringLiteral("NKI")};
        TimelineView timeline;
        std::shared_ptr<kl::sim::SimResult> run = kl::sim::makeSyntheticRun(700);
        SourceLinkController controller{&cuda, &nki, &timeline};
        QSignalSpy problems{&controller, &SourceLinkController::problem};
        QSignalSpy status{&controller, &SourceLinkController::statusMessage};

        Fixture() {
            cuda.resize(600, 500);
            nki.resize(600, 500);
            timeline.resize(1000, 240);
            cuda.showSource(QStringLiteral("kernel.cu"), cudaText());
            nki.showSource(QStringLiteral("kernel.py"), nkiText());
            controller.sourcesShown();
            timeline.setResult(run);
            controller.showRun(run);
            // As MainWindow does: an instruction selected on the timeline shows its NKI line.
            QObject::connect(&timeline, &TimelineView::instructionSelected, &nki, [this](qint64 index) {
                nki.showLine(static_cast<int>(run->timeline.line(static_cast<std::size_t>(index))));
            });
            cuda.show();
            nki.show();
            timeline.show();
        }
        void selectNki(int first, int last) {
            nki.editor()->setSelection(first - 1, 0, last - 1, nki.editor()->text(last - 1).size() - 1);
        }
        void selectCuda(int first, int last) {
            cuda.editor()->setSelection(first - 1, 0, last - 1, cuda.editor()->text(last - 1).size() - 1);
        }
    };

private slots:
    void initTestCase() { QApplication::setStyle(QStringLiteral("Fusion")); }

    void instructionSelectionHighlightsItsLine_data() {
        QTest::addColumn<int>("instruction");
        QTest::newRow("first") << 0;   // line 10, no link
        QTest::newRow("linked") << 2;  // line 12, linked to CUDA 3-4
        QTest::newRow("later") << 355; // line 10 + 355 % 7 = 15
    }

    void instructionSelectionHighlightsItsLine() {
        QFETCH(int, instruction);
        Fixture f;
        const auto& tl = f.run->timeline;
        const auto i = static_cast<std::uint32_t>(instruction);
        const int line = static_cast<int>(tl.line(i));
        f.timeline.setVisibleRange(tl.mainStartPs(i) - 500, tl.endPs(i) + 500);
        const auto row = f.timeline.rows()->rowOf(i);
        QVERIFY(row.has_value());
        const int x = static_cast<int>(f.timeline.xOf((tl.mainStartPs(i) + tl.endPs(i)) / 2));
        QTest::mouseClick(&f.timeline, Qt::LeftButton, {}, QPoint(x, f.timeline.rowCentreY(*row)));
        QCOMPARE(f.timeline.selectedInstruction().value(), i);
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(line, line));
        QVERIFY(f.nki.hasMarker(line, SourcePane::kArrowMarker));
        QVERIFY(f.nki.hasMarker(line, SourcePane::kHighlightMarker));
        QVERIFY(!f.nki.hasMarker(line + 1, SourcePane::kHighlightMarker));
        // The CUDA lines linked to it light up too; a programmatic move never dims the timeline.
        const auto cudaExpected = line == 12 ? std::make_pair(3, 4) : std::make_pair(0, 0);
        QCOMPARE(f.cuda.highlightedLines(), cudaExpected);
        QVERIFY(f.controller.highlightedInstructions().empty());
    }

    void nkiSelectionHighlightsInstructions_data() {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::addColumn<QString>("message");
        QTest::newRow("one line") << 12 << 12 << QStringLiteral("100 instructions on line 12");
        QTest::newRow("range") << 11 << 14 << QStringLiteral("400 instructions on lines 11-14");
        QTest::newRow("no code") << 25 << 27 << QStringLiteral("0 instructions on lines 25-27");
    }

    void nkiSelectionHighlightsInstructions() {
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(QString, message);
        Fixture f;
        const QImage before = f.timeline.grab().toImage();
        f.selectNki(first, last);
        QCOMPARE(f.controller.highlightedInstructions(), onLines(*f.run, first, last));
        QVERIFY(!f.status.isEmpty());
        QCOMPARE(f.status.last().at(0).toString(), message);
        const QImage after = f.timeline.grab().toImage();
        // Highlighting some instructions dims the rest; highlighting none dims nothing.
        QCOMPARE(before != after, f.controller.highlightedInstructions().size() > 0);
    }

    void clickInCudaRangeSelectsNkiLinesAndInstructions() {
        Fixture f;
        f.cuda.editor()->setCursorPosition(3, 2); // CUDA line 4, inside `# cuda: 3-4`
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(12, 12));
        QCOMPARE(f.controller.highlightedInstructions(), onLines(*f.run, 12, 12));
        QVERIFY(f.status.last().at(0).toString().startsWith(QStringLiteral("CUDA 4 -> NKI 12: 100")));
        f.cuda.editor()->setCursorPosition(20, 0); // not linked
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(0, 0));
    }

    void commentLinksAreColouredAlikeAndMalformedOnesReported() {
        Fixture f;
        QCOMPARE(f.problems.count(), 1);
        QCOMPARE(f.problems.at(0).at(2).toInt(), 30);
        QVERIFY(f.problems.at(0).at(0).toString().contains(QStringLiteral("reversed")));
        const QColor a = f.cuda.linkColourAt(3);
        QVERIFY(a.isValid());
        QCOMPARE(f.cuda.linkColourAt(4), a);
        QCOMPARE(f.nki.linkColourAt(12), a);
        const QColor b = f.nki.linkColourAt(14);
        QVERIFY(b.isValid());
        QCOMPARE(f.cuda.linkColourAt(9), b);
        QVERIFY(a != b);
        QVERIFY(!f.nki.linkColourAt(13).isValid());
        QVERIFY(!f.cuda.linkColourAt(5).isValid() ||
                f.cuda.linkColourAt(5) == kl::views::LinkPainter::suggestionColour());
    }

    void hoveringARangeLightsUpItsPartner() {
        Fixture f;
        auto* viewport = f.cuda.editor()->viewport();
        const int h = f.cuda.editor()->textHeight(0);
        QMouseEvent move(QEvent::MouseMove, QPointF(80, 2 * h + h / 2),
                         viewport->mapToGlobal(QPointF(80, 2 * h + h / 2)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move); // over CUDA line 3
        QCOMPARE(f.nki.partnerRange(), std::make_pair(12, 12));
        QVERIFY(f.nki.hasMarker(12, SourcePane::kPartnerMarker));
        emit f.nki.lineHovered(14);
        QCOMPARE(f.cuda.partnerRange(), std::make_pair(9, 9));
        emit f.nki.lineHovered(0);
        QCOMPARE(f.cuda.partnerRange(), std::make_pair(0, 0));
        QVERIFY(!f.cuda.hasMarker(9, SourcePane::kPartnerMarker));
    }

    void linkAndUnlinkWithUndo() {
        Fixture f;
        const auto before = f.controller.links().entries().size();
        f.selectCuda(20, 22);
        f.selectNki(35, 36);
        QVERIFY(f.controller.linkSelection());
        QCOMPARE(f.controller.links().entries().size(), before + 1);
        const QColor colour = f.cuda.linkColourAt(21);
        QVERIFY(colour.isValid());
        QCOMPARE(f.nki.linkColourAt(35), colour);
        QCOMPARE(f.nki.linkColourAt(36), colour);
        QVERIFY(!f.controller.linkSelection()); // the same ranges again: nothing to do

        QUndoStack* undo = f.controller.undoStack();
        QCOMPARE(undo->undoText(), QStringLiteral("Link CUDA 20-22 <-> NKI 35-36"));
        undo->undo();
        QCOMPARE(f.controller.links().entries().size(), before);
        QVERIFY(!f.nki.linkColourAt(35).isValid());
        undo->redo();
        QCOMPARE(f.nki.linkColourAt(35), colour);

        f.nki.editor()->setCursorPosition(35, 0); // NKI line 36
        QVERIFY(f.controller.unlinkAtCaret());
        QVERIFY(!f.cuda.linkColourAt(21).isValid());
        QVERIFY(undo->undoText().startsWith(QStringLiteral("Unlink CUDA 20-22")));
        undo->undo();
        QCOMPARE(f.cuda.linkColourAt(21), colour);
        QCOMPARE(undo->index(), 1);
    }

    void suggestionsCanBeAcceptedAndDismissed() {
        Fixture f;
        const auto& entries = f.controller.links().entries();
        const auto loop = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
            return e.link.origin == kl::core::LinkOrigin::Suggestion && e.link.cudaFirst == 5 && e.link.nkiFirst == 20;
        });
        QVERIFY(loop != entries.end());
        const auto key = loop->key;
        QCOMPARE(loop->link.cudaLast, 8);
        QCOMPARE(loop->link.nkiLast, 21);
        QVERIFY(f.controller.reasonOf(key).startsWith(QStringLiteral("loop")));
        QCOMPARE(f.nki.linkColourAt(20), kl::views::LinkPainter::suggestionColour());

        f.nki.editor()->setCursorPosition(20, 0); // NKI line 21
        QVERIFY(f.controller.decideSuggestionAtCaret(kl::core::LinkState::Accepted));
        QVERIFY(f.controller.links().find(key)->link.state == kl::core::LinkState::Accepted);
        QVERIFY(f.nki.linkColourAt(20) != kl::views::LinkPainter::suggestionColour());
        QCOMPARE(f.cuda.linkColourAt(6), f.nki.linkColourAt(21));
        f.controller.undoStack()->undo();
        QVERIFY(f.controller.links().find(key)->link.state == kl::core::LinkState::Proposed);
        QVERIFY(f.controller.decideSuggestionAtCaret(kl::core::LinkState::Rejected));
        QVERIFY(!f.nki.linkColourAt(20).isValid());
    }

    void heatMarginAndHotLines() {
        Fixture f;
        auto hot = kl::sim::makeSyntheticRun(700);
        hot->timeline.setEndPs(3, hot->timeline.endPs(3) + 100'000); // line 13 becomes the hottest
        f.timeline.setResult(hot);
        f.controller.showRun(hot);
        const auto& cost = f.controller.lineCost();
        QCOMPARE(cost.lines.size(), std::size_t{7});
        QCOMPARE(cost.attributedPs, cost.totalPs);
        QVERIFY(f.nki.editor()->marginWidth(kl::views::HeatMargin::kTextMargin) > 0);
        kl::views::HeatMargin probe(f.nki.editor(), SourcePane::kFirstFreeMarker); // reads the same markers
        const int hottest = cost.byCost().front().line;
        QCOMPARE(hottest, 13);
        QCOMPARE(probe.stepAt(hottest), kl::views::HeatMargin::kSteps - 1);
        QCOMPARE(probe.stepAt(5), -1);

        auto* model = f.controller.hotLinesView()->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 7);
        QCOMPARE(model->lineAt(0), hottest);
        const auto share = model->index(0, kl::views::HotLinesModel::ShareColumn).data().toString();
        QVERIFY(share.endsWith(QLatin1Char('%')));
        model->sort(kl::views::HotLinesModel::LineColumn, Qt::AscendingOrder);
        QCOMPARE(model->lineAt(0), 10);
        QCOMPARE(model->lineAt(6), 16);
        QCOMPARE(model->index(0, kl::views::HotLinesModel::CountColumn).data().toInt(), 100);
        // A new run resets the model; the tester checks the reset too.
        f.controller.showRun(kl::sim::makeSyntheticRun(70));
        QCOMPARE(model->rowCount(), 7);

        emit f.controller.hotLinesView()->lineActivated(13);
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(13, 13));
    }

    void hotLinesUseTheTablesBuiltWithTheRun() {
        // The simulation worker builds the line costs with the run (RunDisplay); the controller shows them as they
        // are, with no pass over the instructions of its own, and they equal what it would compute.
        Fixture f;
        auto run = kl::sim::makeSyntheticRun(700);
        run->timeline.setEndPs(3, run->timeline.endPs(3) + 100'000);
        f.timeline.setResult(run);
        const auto display = kl::app::RunDisplay::build(run);
        QVERIFY(display.rows && display.plots && display.lineCosts);
        QCOMPARE(display.lineCosts->byFile.size(), run->files.size());
        f.controller.showRun(run);
        const kl::core::LineCostTable computed = f.controller.lineCost();
        f.controller.showRun(run, display.lineCosts);
        const kl::core::LineCostTable& installed = f.controller.lineCost();
        QCOMPARE(installed.lines.size(), computed.lines.size());
        for (std::size_t i = 0; i < computed.lines.size(); ++i) {
            QCOMPARE(installed.lines[i].line, computed.lines[i].line);
            QCOMPARE(installed.lines[i].timePs, computed.lines[i].timePs);
            QCOMPARE(installed.lines[i].instructions, computed.lines[i].instructions);
        }
        QCOMPARE(installed.totalPs, computed.totalPs);
        auto doctored = std::make_shared<kl::app::RunLineCosts>(*display.lineCosts);
        for (auto* table : {&doctored->anyFile, &doctored->byFile.front()}) {
            table->lines.resize(1);
        }
        f.controller.showRun(run, doctored);
        QCOMPARE(f.controller.hotLinesView()->model()->rowCount(), 1);
    }

    /// A kernel in a package: the run records instructions in the kernel file and in a helper module.
    void packageFilesAreOfferedAndFollowTheTimeline() {
        QTemporaryDir dir;
        const QString kernelPath = makePackage(dir);
        QStringList helper;
        for (int i = 1; i <= 12; ++i) {
            helper << QStringLiteral("    h%1 = helper()").arg(i);
        }
        writeFile(dir.path() + QStringLiteral("/pkg/util/helpers.py"), helper.join(QLatin1Char('\n')));

        auto run = std::make_shared<kl::sim::SimResult>();
        run->files = {"pkg/ops/kernel.py", "pkg/util/helpers.py"};
        run->laneCount = kl::sim::kComputeLanes + 2;
        run->timeline.reserve(8, 0);
        for (std::uint32_t i = 0; i < 8; ++i) { // even: kernel.py line 12; odd: helpers.py line 5
            kl::sim::TimelineData::Record r;
            r.irId = i;
            r.mainStartPs = i * 1000;
            r.endPs = r.mainStartPs + 900;
            r.lane = 2;
            r.op = kl::sim::Op::TensorTensor;
            r.loc = {i % 2, i % 2 == 0 ? 12u : 5u};
            run->timeline.append(r);
        }
        run->timeline.freeze();
        run->summary.totalPs = 8000;

        Fixture f;
        auto* chooser = f.nki.findChild<QComboBox*>(QStringLiteral("fileChooser"));
        QVERIFY(chooser);
        f.controller.setKernelFile(kernelPath);
        f.nki.showSource(QStringLiteral("kernel.py"), nkiText());
        f.controller.sourcesShown();
        f.timeline.setResult(run);
        f.controller.showRun(run);
        QVERIFY(chooser->isVisible());
        QCOMPARE(chooser->count(), 2);
        QCOMPARE(chooser->itemText(1), QStringLiteral("pkg/util/helpers.py"));
        QCOMPARE(f.controller.lineCost().lines.size(), std::size_t{1});
        QCOMPARE(f.controller.lineCost().lines.front().line, 12);

        // The user picks the helper module: its text, its line costs, and no kernel-file links.
        emit f.nki.fileChosen(1);
        QCOMPARE(f.nki.fileName(), QStringLiteral("pkg/util/helpers.py"));
        QCOMPARE(f.nki.lineCount(), 12);
        QCOMPARE(f.controller.lineCost().lines.size(), std::size_t{1});
        QCOMPARE(f.controller.lineCost().lines.front().line, 5);
        QVERIFY(f.controller.links().entries().empty());
        f.selectNki(5, 5);
        QCOMPARE(f.controller.highlightedInstructions(), (std::vector<std::uint32_t>{1, 3, 5, 7}));
        QVERIFY(!f.controller.linkSelection());

        // An instruction of the kernel file brings the kernel file back, at its line, with its links.
        f.controller.showKernelLocation(0, 12);
        QCOMPARE(f.nki.fileName(), QStringLiteral("pkg/ops/kernel.py"));
        QCOMPARE(chooser->currentIndex(), 0);
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(12, 12));
        QVERIFY(!f.controller.links().entries().empty());

        // A task's extra file (not in the run) is offered after the package's files, without costs.
        writeFile(dir.path() + QStringLiteral("/reference.py"), QStringLiteral("def reference(x):\n    return x\n"));
        f.controller.setKernelFile(kernelPath,
                                   {{QStringLiteral("reference.py"), dir.path() + QStringLiteral("/reference.py")}});
        f.controller.showRun(run);
        QCOMPARE(chooser->count(), 3);
        emit f.nki.fileChosen(2);
        QCOMPARE(f.nki.fileName(), QStringLiteral("reference.py"));
        QVERIFY(f.controller.lineCost().lines.empty());
        QCOMPARE(chooser->currentIndex(), 2);
        emit f.nki.fileChosen(0);
        QCOMPARE(f.nki.fileName(), QStringLiteral("pkg/ops/kernel.py"));

        // A missing file is a problem report, and the pane stays on what it showed.
        QFile::remove(dir.path() + QStringLiteral("/pkg/util/helpers.py"));
        QVERIFY(!f.controller.showKernelFile(1));
        QCOMPARE(f.nki.fileName(), QStringLiteral("pkg/ops/kernel.py"));
        QVERIFY(!f.problems.isEmpty());
    }

    /// A trace that failed inside a helper module: its Problems entry opens that module at the line; the
    /// next run starts on the kernel file again.
    void problemInAnotherFileOfThePackage() {
        QTemporaryDir dir;
        const QString kernelPath = makePackage(dir);
        writeFile(dir.path() + QStringLiteral("/pkg/util/assert.py"), QStringLiteral("a\nb\nraise X\nd"));
        Fixture f;
        f.controller.setKernelFile(kernelPath);
        f.controller.showRun(nullptr);
        f.controller.showProblemLocation(QStringLiteral("pkg/util/assert.py"), 3);
        QCOMPARE(f.nki.fileName(), QStringLiteral("pkg/util/assert.py"));
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(3, 3));
        f.controller.showRun(f.run);
        QCOMPARE(f.nki.fileName(), QStringLiteral("kernel.py"));
        QVERIFY(!f.controller.links().entries().empty());
        f.controller.showProblemLocation(QStringLiteral("kernel.py"), 14);
        QCOMPARE(f.nki.highlightedLines(), std::make_pair(14, 14));
    }

    void singleFileRunHasNoChooser() {
        Fixture f;
        f.controller.setKernelFile(QStringLiteral("/nowhere/kernel.py"));
        f.controller.showRun(f.run);
        QVERIFY(!f.nki.findChild<QComboBox*>(QStringLiteral("fileChooser"))->isVisible());
        QCOMPARE(f.nki.currentFileChoice(), -1);
    }

    void findAndGoToLine() {
        Fixture f;
        f.nki.findBar()->open();
        QVERIFY(f.nki.findBar()->isVisible());
        QVERIFY(f.nki.findBar()->find(QStringLiteral("affine_range")));
        int line = 0, index = 0;
        f.nki.editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 19);
        QVERIFY(!f.nki.findBar()->find(QStringLiteral("no such text")));
        f.nki.goToLine(33);
        f.nki.editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 32);
        QVERIFY(f.nki.editor()->isReadOnly());
        f.nki.setEditable(true);
        QVERIFY(!f.nki.editor()->isReadOnly());
    }
};

QTEST_MAIN(SourceLinkTest)
#include "SourceLinkTest.moc"

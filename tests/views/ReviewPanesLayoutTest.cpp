// The review docks at the width a right-hand dock has (about 320 px): rubric item names wrap instead of being cut
// and nothing scrolls sideways after scoring; the annotation table keeps its text column the widest, rows grow to
// show wrapped text, and every cell's tooltip holds the whole annotation.
#include "review/AnnotationListModel.h"
#include "review/AnnotationListPane.h"
#include "review/ScorecardPane.h"

#include "rubric/RubricLoader.h"
#include "support/ResourcePaths.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <QTreeView>

namespace {

/// A major annotation on NKI lines 12-18 by "ana" for rubric item perf.overlap, with the given text.
kl::core::Annotation sampleAnnotation(const char* text) {
    kl::core::Annotation a;
    a.id = 7;
    a.taskId = 1;
    a.anchor = kl::core::Anchor::nkiLines(12, 18);
    a.severity = kl::core::Severity::Major;
    a.rubricItem = "perf.overlap";
    a.author = "ana";
    a.text = text;
    return a;
}

} // namespace

class ReviewPanesLayoutTest : public QObject {
    Q_OBJECT

private slots:
    void rubricItemNamesGetTheWidthAndNothingScrollsSideways() {
        auto rubric =
            kl::core::RubricLoader::loadFile((kl::core::resourcesDir() / "rubrics" / "nki-migration.json").string());
        QVERIFY(rubric.has_value());
        kl::views::ScorecardPane pane;
        pane.resize(320, 700);
        pane.setRubric(&*rubric);
        std::vector<kl::core::Score> scores{{1, "fidelity.semantics", 1, "ana", "t"}, {1, "perf.dma", 5, "ana", "t"}};
        pane.setScorecard(kl::core::computeScorecard(*rubric, scores, {}));
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTreeView* tree = pane.tree();
        const QAbstractItemModel* model = tree->model();
        QVERIFY(tree->wordWrap());
        QVERIFY2(tree->header()->sectionSize(0) >= tree->viewport()->width() / 2,
                 qPrintable(QStringLiteral("item column %1 of %2 px")
                                .arg(tree->header()->sectionSize(0))
                                .arg(tree->viewport()->width())));
        QVERIFY(!tree->horizontalScrollBar()->isVisible());
        // A name longer than its column wraps onto more lines (the row grows) instead of ending in "...".
        pane.resize(240, 700);
        QTest::qWait(20);
        bool wrapped = false;
        for (int g = 0; g < model->rowCount() && !wrapped; ++g) {
            const QModelIndex area = model->index(g, 0);
            for (int i = 0; i < model->rowCount(area) && !wrapped; ++i) {
                const QModelIndex item = model->index(i, 0, area);
                const int needed = tree->fontMetrics().horizontalAdvance(item.data().toString());
                if (needed > tree->header()->sectionSize(0)) {
                    QVERIFY2(tree->visualRect(item).height() >= 2 * tree->fontMetrics().height(),
                             qPrintable(item.data().toString()));
                    wrapped = true;
                }
            }
        }
        QVERIFY2(wrapped, "no item name was longer than its column: the check did not run");
    }

    void rowsRefitTheirWrappedTextOnceAResizePauses() {
        kl::views::AnnotationListPane pane;
        pane.resize(900, 400);
        std::vector<kl::core::Annotation> many;
        for (int i = 0; i < 200; ++i) {
            kl::core::Annotation a = sampleAnnotation(
                "The loads of the next tile wait for the previous store: double-buffer the tiles so DMA overlaps");
            a.id = i + 1;
            many.push_back(a);
        }
        pane.setAnnotations(many);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTableView* table = pane.table();
        QTRY_VERIFY(table->rowHeight(0) > 0);
        const int wide = table->rowHeight(0);
        // A dock drag: many resizes in a row; once it pauses the rows fit the narrower text column.
        for (int w = 880; w >= 300; w -= 20) {
            pane.resize(w, 400);
            QCoreApplication::processEvents();
        }
        QTRY_VERIFY2(table->rowHeight(0) > wide,
                     qPrintable(QStringLiteral("%1 -> %2").arg(wide).arg(table->rowHeight(0))));
        QCOMPARE(table->rowHeight(199), table->rowHeight(0));
    }

    void annotationTextKeepsTheRoomAndTooltipsHoldEverything() {
        kl::views::AnnotationListPane pane;
        pane.resize(320, 500);
        const kl::core::Annotation a = sampleAnnotation(
            "The loads of the next tile wait for the previous store: double-buffer the tiles so DMA overlaps compute");
        pane.setAnnotations({a});
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTableView* table = pane.table();
        const int text = kl::views::AnnotationListModel::Text;
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            if (c != text) {
                QVERIFY2(table->columnWidth(c) <= table->columnWidth(text), qPrintable(QString::number(c)));
            }
            const QString tip = table->model()->index(0, c).data(Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QStringLiteral("double-buffer")) && tip.contains(QStringLiteral("NKI lines 12-18")),
                     qPrintable(tip));
        }
        QVERIFY2(table->rowHeight(0) > table->fontMetrics().height() + 4, "the wrapped text gets more than one line");
        // A long anchor ("time 1000.00-9000.00 us") keeps its capped width: the text keeps the most room.
        kl::core::Annotation b = a;
        b.id = 8;
        b.anchor = kl::core::Anchor::timeRange(1'000'000'000, 9'000'000'000);
        pane.setAnnotations({a, b});
        QTest::qWait(20);
        QVERIFY2(table->columnWidth(kl::views::AnnotationListModel::Anchor) <= table->columnWidth(text),
                 qPrintable(QStringLiteral("anchor %1, text %2")
                                .arg(table->columnWidth(kl::views::AnnotationListModel::Anchor))
                                .arg(table->columnWidth(text))));
    }

    void aNarrowAnnotationListHidesTheSecondaryColumnsUnlessTheUserShowsThem() {
        using Model = kl::views::AnnotationListModel;
        kl::views::AnnotationListPane pane;
        const kl::core::Annotation a = sampleAnnotation("Hoist the bias load out of the loop");
        pane.setAnnotations({a});
        pane.resize(300, 400);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTableView* table = pane.table();
        for (const int c : {Model::Item, Model::Score, Model::Author, Model::Status}) {
            QVERIFY2(table->isColumnHidden(c), qPrintable(QString::number(c)));
        }
        for (const int c : {Model::Number, Model::Anchor, Model::Severity, Model::Text}) {
            QVERIFY(!table->isColumnHidden(c));
        }
        const int narrowText = table->columnWidth(Model::Text);
        QVERIFY2(narrowText >= table->viewport()->width() / 3, qPrintable(QString::number(narrowText)));
        // Wide: everything shows again.
        pane.resize(kl::views::AnnotationListPane::kNarrowWidth + 200, 400);
        QVERIFY(!table->isColumnHidden(Model::Author) && !table->isColumnHidden(Model::Item));
        // The user's choice from the header menu outlasts resizes.
        pane.setColumnChoice(Model::Author, true);
        pane.setColumnChoice(Model::Anchor, false);
        pane.resize(300, 400);
        QVERIFY(!table->isColumnHidden(Model::Author));
        QVERIFY(table->isColumnHidden(Model::Anchor));
        QVERIFY(table->isColumnHidden(Model::Item)); // not chosen: still follows the width
    }
};

QTEST_MAIN(ReviewPanesLayoutTest)
#include "ReviewPanesLayoutTest.moc"

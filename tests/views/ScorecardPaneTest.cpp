// The scorecard pane over its model (issue 22): a score box on every item row, a choice asks the owner and the
// owner's scorecard comes back into the same boxes, a choice the owner did not take does not stay in its box,
// and the item the reviewer was reading stays current (with its guidance) while scores change.
#include "review/ScorecardModel.h"
#include "review/ScorecardPane.h"

#include "rubric/RubricLoader.h"
#include "support/ResourcePaths.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using kl::views::ScorecardModel;

class ScorecardPaneTest : public QObject {
    Q_OBJECT

private slots:
    void init() {
        auto rubric =
            kl::core::RubricLoader::loadFile((kl::core::resourcesDir() / "rubrics" / "nki-migration.json").string());
        QVERIFY(rubric.has_value());
        m_rubric = std::move(*rubric);
        m_scores = {{1, "fidelity.semantics", 1, "ana", "t"}, {1, "perf.dma", 5, "ana", "t"}};
    }

    void everyItemHasAScoreBoxShowingItsScore() {
        kl::views::ScorecardPane pane;
        pane.setRubric(&m_rubric);
        pane.setScorecard(kl::core::computeScorecard(m_rubric, m_scores, {}));
        int boxes = 0;
        for (const auto& area : m_rubric.areas) {
            for (const auto& item : area.items) {
                QComboBox* box = boxOf(pane, item.id);
                QVERIFY2(box != nullptr, item.id.c_str());
                QCOMPARE(box->count(), item.scale.maxValue() - item.scale.minValue() + 2); // + "unscored"
                ++boxes;
            }
        }
        QCOMPARE(static_cast<std::size_t>(boxes), m_rubric.itemCount());
        QCOMPARE(boxOf(pane, "perf.dma")->currentData().toInt(), 5);
        QCOMPARE(boxOf(pane, "perf.dma")->toolTip(), boxOf(pane, "perf.dma")->currentText());
        QCOMPARE(boxOf(pane, "perf.overlap")->currentText(), QStringLiteral("unscored"));
        QVERIFY(pane.resultText().contains(QStringLiteral("INCOMPLETE")));
    }

    void aChosenScoreGoesToTheOwnerAndComesBack() {
        kl::views::ScorecardPane pane;
        pane.setRubric(&m_rubric);
        pane.setScorecard(kl::core::computeScorecard(m_rubric, m_scores, {}));
        // The reviewer reads the DMA item's guidance, then scores it.
        pane.tree()->setCurrentIndex(pane.model()->indexOfItem(QStringLiteral("perf.dma")));
        const QString guidance = pane.guidanceText();
        QVERIFY(!guidance.isEmpty());
        QSignalSpy chosen(&pane, &kl::views::ScorecardPane::scoreChosen);
        connect(&pane, &kl::views::ScorecardPane::scoreChosen, this, [&](const QString& id, int value) {
            for (auto& s : m_scores) {
                if (s.itemId == id.toStdString()) {
                    s.value = value;
                }
            }
            pane.setScorecard(kl::core::computeScorecard(m_rubric, m_scores, {}));
        });
        QComboBox* box = boxOf(pane, "perf.dma");
        box->setCurrentIndex(box->findData(2));
        emit box->activated(box->currentIndex());
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.front().at(1).toInt(), 2);
        QCOMPARE(boxOf(pane, "perf.dma"), box); // updated in place: the same box, now showing the saved score
        QCOMPARE(box->currentData().toInt(), 2);
        QCOMPARE(pane.model()->itemAt(pane.tree()->currentIndex())->id, std::string("perf.dma"));
        QCOMPARE(pane.guidanceText(), guidance);
        // Choosing the score it already has is no new score (no second undo step for the same value).
        emit box->activated(box->currentIndex());
        QCOMPARE(chosen.count(), 1);
    }

    void aScoreTheOwnerDidNotTakeDoesNotStay() {
        kl::views::ScorecardPane pane;
        pane.setRubric(&m_rubric);
        pane.setScorecard(kl::core::computeScorecard(m_rubric, m_scores, {}));
        QSignalSpy chosen(&pane, &kl::views::ScorecardPane::scoreChosen); // nobody saves: no reviewer name given
        QComboBox* box = boxOf(pane, "perf.overlap");
        box->setCurrentIndex(box->count() - 1);
        emit box->activated(box->currentIndex());
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(box->currentText(), QStringLiteral("unscored"));
    }

    void anotherTaskKeepsTheCurrentItemAndClosingEmptiesTheTree() {
        kl::views::ScorecardPane pane;
        pane.setRubric(&m_rubric);
        pane.setScorecard(kl::core::computeScorecard(m_rubric, m_scores, {}));
        pane.tree()->setCurrentIndex(pane.model()->indexOfItem(QStringLiteral("hw.tile_shapes")));
        pane.setRubric(&m_rubric); // a reset: editors and the current row are rebuilt
        QCOMPARE(pane.model()->itemAt(pane.tree()->currentIndex())->id, std::string("hw.tile_shapes"));
        QVERIFY(boxOf(pane, "hw.tile_shapes") != nullptr);
        QVERIFY(pane.guidanceText().contains(QString::fromStdString(m_rubric.findItem("hw.tile_shapes")->title)));
        pane.setRubric(nullptr);
        QCOMPARE(pane.model()->rowCount(), 0);
        QVERIFY(pane.guidanceText().isEmpty());
        QVERIFY(pane.resultText().startsWith(QStringLiteral("Open a review file")));
    }

private:
    static QComboBox* boxOf(const kl::views::ScorecardPane& pane, const std::string& itemId) {
        const QModelIndex cell = pane.model()->indexOfItem(QString::fromStdString(itemId), ScorecardModel::ScoreColumn);
        return qobject_cast<QComboBox*>(pane.tree()->indexWidget(cell));
    }

    kl::core::Rubric m_rubric;
    std::vector<kl::core::Score> m_scores;
};

QTEST_MAIN(ScorecardPaneTest)
#include "ScorecardPaneTest.moc"

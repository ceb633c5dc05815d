#include "review/ScorecardPane.h"

#include "common/QtText.h"
#include "review/ScoreChoiceDelegate.h"
#include "review/ScorecardModel.h"
#include "review/WrappingItemDelegate.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace kl::views {

ScorecardPane::ScorecardPane(QWidget* parent) : QWidget(parent), m_model(new ScorecardModel(this)) {
    m_result = new QLabel;
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_tree = new QTreeView;
    m_tree->setModel(m_model);
    // The dock is narrow: item names wrap instead of being cut, the score boxes keep a compact width (their
    // full wording is in the list and the tooltip), and nothing scrolls sideways.
    m_tree->header()->setSectionResizeMode(ScorecardModel::ItemColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(ScorecardModel::ScoreColumn, QHeaderView::Fixed);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setIndentation(m_tree->fontMetrics().averageCharWidth() * 2);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_tree->setWordWrap(true);
    m_tree->setUniformRowHeights(false);
    m_tree->setItemDelegateForColumn(ScorecardModel::ItemColumn, new WrappingItemDelegate(m_tree));
    m_tree->setItemDelegateForColumn(ScorecardModel::ScoreColumn, new ScoreChoiceDelegate(m_tree));
    // Score boxes are always open (below), so the view itself never starts an editor.
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setRootIsDecorated(true);
    m_guidance = new QTextBrowser;
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tree);
    split->addWidget(m_guidance);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_result);
    layout->addWidget(split, 1);
    connect(m_model, &ScorecardModel::scoreChosen, this, &ScorecardPane::scoreChosen);
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
            [this] { m_currentItem = m_tree->currentIndex().data(ScorecardModel::ItemIdRole).toString(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ScorecardPane::afterReset);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ScorecardPane::showGuidance);
    afterReset();
    showResult();
}

void ScorecardPane::setRubric(const core::Rubric* rubric) {
    m_model->setRubric(rubric);
    showResult();
}

void ScorecardPane::setScorecard(const std::optional<core::Scorecard>& card) {
    m_model->setScorecard(card);
    showResult();
}

QString ScorecardPane::resultText() const {
    return m_result->text();
}

QString ScorecardPane::guidanceText() const {
    return m_guidance->toPlainText();
}

void ScorecardPane::showResult() {
    const core::Rubric* rubric = m_model->rubric();
    const auto& card = m_model->scorecard();
    if (rubric == nullptr || !card) {
        m_result->setText(tr("Open a review file and a task to score it against the rubric."));
        return;
    }
    const QString overall = card->overall ? QString::number(*card->overall, 'f', 2) : tr("n/a");
    const QString colour = card->result == core::ScorecardResult::Pass   ? QStringLiteral("#27ae60")
                           : card->result == core::ScorecardResult::Fail ? QStringLiteral("#d63031")
                                                                         : QStringLiteral("#e67e22");
    QString text = tr("<b style='color:%1'>%2</b> &nbsp; overall %3 / 5 &nbsp; %4 of %5 items unscored")
                       .arg(colour, toQString(core::toString(card->result)).toUpper(), overall)
                       .arg(card->unscored.size())
                       .arg(rubric->itemCount());
    for (const auto& reason : card->reasons) {
        text += QStringLiteral("<br>&bull; ") + toQString(reason).toHtmlEscaped();
    }
    m_result->setText(text);
}

// A reset drops the view's editors and current row: open a score box on every item row again, expand the
/// areas and go back to the item that was current.
void ScorecardPane::afterReset() {
    for (int a = 0; a < m_model->rowCount(); ++a) {
        const QModelIndex area = m_model->index(a, 0);
        for (int i = 0; i < m_model->rowCount(area); ++i) {
            m_tree->openPersistentEditor(m_model->index(i, ScorecardModel::ScoreColumn, area));
        }
    }
    m_tree->expandAll();
    m_tree->header()->resizeSection(ScorecardModel::ScoreColumn, m_tree->fontMetrics().averageCharWidth() * 13);
    if (const QModelIndex current = m_model->indexOfItem(m_currentItem); current.isValid()) {
        m_tree->setCurrentIndex(current);
    }
    showGuidance();
}

void ScorecardPane::showGuidance() {
    const core::RubricItem* item = m_model->itemAt(m_tree->currentIndex());
    if (item == nullptr) {
        m_guidance->clear();
        return;
    }
    QString html = QStringLiteral("<b>%1</b><p>%2</p><ul>")
                       .arg(toQString(item->title).toHtmlEscaped(), toQString(item->guidance).toHtmlEscaped());
    for (int v = item->scale.minValue(); v <= item->scale.maxValue(); ++v) {
        html += QStringLiteral("<li>%1</li>").arg(toQString(item->scale.describe(v)).toHtmlEscaped());
    }
    m_guidance->setHtml(html + QStringLiteral("</ul>"));
}

} // namespace kl::views

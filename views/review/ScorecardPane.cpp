#include "review/ScorecardPane.h"

#include "common/QtText.h"
#include "review/WrappingItemDelegate.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kl::views {

namespace {

constexpr int kItemIdRole = Qt::UserRole + 1;

const core::ItemScore* findScore(const std::optional<core::Scorecard>& card, const std::string& id) {
    if (!card) {
        return nullptr;
    }
    for (const auto& area : card->areas) {
        for (const auto& item : area.items) {
            if (item.itemId == id) {
                return &item;
            }
        }
    }
    return nullptr;
}

} // namespace

ScorecardPane::ScorecardPane(QWidget* parent) : QWidget(parent) {
    m_result = new QLabel;
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_tree = new QTreeWidget;
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Item"), tr("Score")});
    // The dock is narrow: item names wrap instead of being cut, the score boxes keep a compact width (their
    // full wording is in the list and the tooltip), and nothing scrolls sideways.
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Fixed);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setIndentation(m_tree->fontMetrics().averageCharWidth() * 2);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_tree->setWordWrap(true);
    m_tree->setUniformRowHeights(false);
    m_tree->setItemDelegateForColumn(0, new WrappingItemDelegate(m_tree));
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
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &ScorecardPane::showGuidance);
    setScorecard(std::nullopt);
}

void ScorecardPane::setRubric(const core::Rubric* rubric) {
    m_rubric = rubric;
    rebuild();
}

void ScorecardPane::setScorecard(const std::optional<core::Scorecard>& card) {
    m_card = card;
    rebuild();
}

QString ScorecardPane::resultText() const {
    return m_result->text();
}

void ScorecardPane::rebuild() {
    const QString current = m_tree->currentItem() ? m_tree->currentItem()->data(0, kItemIdRole).toString() : QString();
    m_tree->clear();
    if (m_rubric == nullptr || !m_card) {
        m_result->setText(tr("Open a review file and a task to score it against the rubric."));
        return;
    }
    const auto& card = *m_card;
    const QString overall = card.overall ? QString::number(*card.overall, 'f', 2) : tr("n/a");
    const QString colour = card.result == core::ScorecardResult::Pass   ? QStringLiteral("#27ae60")
                           : card.result == core::ScorecardResult::Fail ? QStringLiteral("#d63031")
                                                                        : QStringLiteral("#e67e22");
    QString text = tr("<b style='color:%1'>%2</b> &nbsp; overall %3 / 5 &nbsp; %4 of %5 items unscored")
                       .arg(colour, toQString(core::toString(card.result)).toUpper(), overall)
                       .arg(card.unscored.size())
                       .arg(m_rubric->itemCount());
    for (const auto& reason : card.reasons) {
        text += QStringLiteral("<br>&bull; ") + toQString(reason).toHtmlEscaped();
    }
    m_result->setText(text);
    for (const auto& area : m_rubric->areas) {
        auto* areaItem = new QTreeWidgetItem(m_tree, {toQString(area.title)});
        QFont bold = areaItem->font(0);
        bold.setBold(true);
        areaItem->setFont(0, bold);
        for (const auto& a : card.areas) {
            if (a.areaId == area.id && a.score) {
                areaItem->setText(1, QString::number(*a.score, 'f', 2));
            }
        }
        for (const auto& item : area.items) {
            auto* row = new QTreeWidgetItem(areaItem, {toQString(item.title)});
            row->setData(0, kItemIdRole, toQString(item.id));
            const core::ItemScore* score = findScore(m_card, item.id);
            auto* box = new QComboBox;
            box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            box->setMinimumContentsLength(6);
            box->addItem(tr("unscored"), -1);
            for (int v = item.scale.minValue(); v <= item.scale.maxValue(); ++v) {
                box->addItem(toQString(item.scale.describe(v)), v);
            }
            box->setCurrentIndex(std::max(0, box->findData(score && score->value ? *score->value : -1)));
            box->setToolTip(box->currentText());
            row->setToolTip(0, toQString(item.title));
            const QString id = toQString(item.id);
            connect(box, &QComboBox::activated, this,
                    [this, box, id] { emit scoreChosen(id, box->currentData().toInt()); });
            m_tree->setItemWidget(row, 1, box);
            if (score && score->annotationCount > 0) { // the count rides with the name: no column to spare
                row->setText(0,
                             tr("%1 (%n annotation(s))", nullptr, score->annotationCount).arg(toQString(item.title)));
            }
            if (id == current) {
                m_tree->setCurrentItem(row);
            }
        }
    }
    m_tree->expandAll();
    m_tree->header()->resizeSection(1, m_tree->fontMetrics().averageCharWidth() * 13);
}

void ScorecardPane::showGuidance() {
    if (m_rubric == nullptr || m_tree->currentItem() == nullptr) {
        m_guidance->clear();
        return;
    }
    const core::RubricItem* item =
        m_rubric->findItem(m_tree->currentItem()->data(0, kItemIdRole).toString().toStdString());
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

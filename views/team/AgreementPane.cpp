#include "team/AgreementPane.h"

#include "common/QtText.h"
#include "team/AgreementItemsModel.h"
#include "team/DisagreementsModel.h"
#include "team/DisputeDetailModel.h"
#include "team/ReviewerLensModel.h"

#include "rubric/Rubric.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <array>
#include <initializer_list>
#include <optional>

namespace kl::views {
namespace {

/// A read-only table of whole rows in the narrow dock.
void setUpTable(QTableView* t) {
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->verticalHeader()->hide();
    t->setWordWrap(true);
    t->horizontalHeader()->setStretchLastSection(true);
}

} // namespace

QColor AgreementPane::reviewerColour(int index) {
    // Okabe & Ito's colour-blind-safe qualitative palette (without black): reviewers stay distinguishable
    // for the one reader in twelve with a colour-vision deficiency.
    static constexpr std::array<QRgb, 7> kPalette{0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7};
    return QColor::fromRgb(kPalette[static_cast<std::size_t>(index) % kPalette.size()]);
}

AgreementPane::AgreementPane(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel), m_itemModel(new AgreementItemsModel(this)),
      m_itemSort(new QSortFilterProxyModel(this)), m_items(new QTableView),
      m_disputeModel(new DisagreementsModel(this)), m_detailModel(new DisputeDetailModel(this)),
      m_disputes(new QTableView), m_detail(new QTableView), m_value(new QSpinBox), m_reason(new QLineEdit),
      m_agree(new QPushButton(tr("Set Agreed Grade"))),
      m_lens(new QCheckBox(tr("Colour timeline annotations by reviewer"))),
      m_reviewerModel(new ReviewerLensModel(this)), m_reviewers(new QListView) {
    setObjectName(QStringLiteral("agreementPane"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_disputes->setModel(m_disputeModel);
    m_detail->setModel(m_detailModel);
    for (QTableView* t : std::initializer_list<QTableView*>{m_items, m_disputes, m_detail}) {
        setUpTable(t);
    }
    m_itemSort->setSourceModel(m_itemModel);
    m_items->setModel(m_itemSort);
    // Sortable by any column, but first in the report's order (the items as the rubric lists them, then overall).
    m_items->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_items->setSortingEnabled(true);
    m_disputes->setToolTip(tr("Disagreements, largest spread first. Double-click to open the task."));
    m_reason->setPlaceholderText(tr("Why this grade (required; shown in reports)"));
    m_agree->setEnabled(false);
    m_reviewers->setModel(m_reviewerModel);
    m_reviewers->setMaximumHeight(90);
    m_reviewers->setToolTip(tr("Untick a reviewer to hide their annotations on the timeline"));
    // The dock is narrow: the text columns take what is left, the figures only what they need.
    for (QTableView* t : std::initializer_list<QTableView*>{m_items, m_disputes, m_detail}) {
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    }
    m_detail->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_detail->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_items);
    splitter->addWidget(m_disputes);
    splitter->addWidget(buildForm());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_lens);
    layout->addWidget(m_reviewers);

    connect(m_disputes->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showDispute(current.isValid() ? current.row() : -1); });
    connect(m_disputes, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const core::team::Disagreement* d = m_disputeModel->at(index.row())) {
            emit taskRequested(d->taskId);
        }
    });
    connect(m_reason, &QLineEdit::textChanged, this,
            [this] { m_agree->setEnabled(currentDispute() >= 0 && !m_reason->text().trimmed().isEmpty()); });
    connect(m_reason, &QLineEdit::returnPressed, m_agree, &QPushButton::click);
    connect(m_agree, &QPushButton::clicked, this, [this] {
        const core::team::Disagreement* d = m_disputeModel->at(currentDispute());
        if (d == nullptr || m_reason->text().trimmed().isEmpty()) {
            return;
        }
        emit adjudicateRequested(d->taskId, toQString(d->item), m_value->value(), m_reason->text().trimmed());
    });
    connect(m_lens, &QCheckBox::toggled, this, [this] { emitLens(); });
    connect(m_reviewerModel, &ReviewerLensModel::visibilityChanged, this, [this] { emitLens(); });
    clear();
}

QWidget* AgreementPane::buildForm() {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_detail, 1);
    auto* form = new QHBoxLayout;
    form->addWidget(new QLabel(tr("Agreed grade:")));
    form->addWidget(m_value);
    form->addStretch(1);
    form->addWidget(m_agree);
    layout->addLayout(form);
    layout->addWidget(m_reason);
    return box;
}

void AgreementPane::clear() {
    m_report = {};
    m_annotations.clear();
    m_itemModel->clear();
    m_disputeModel->setDisagreements({});
    m_detailModel->setDispute(nullptr, {});
    m_reviewerModel->clear();
    m_summary->setText(tr("Merge reviews (File > Merge Reviews...) to compare reviewers: agreement per rubric item, "
                          "the disagreements and the agreed grades appear here."));
}

void AgreementPane::setData(const core::team::AgreementReport& report, std::vector<core::Annotation> annotations,
                            const core::Rubric* rubric) {
    // Keep the adjudicator's place after an edit: the same task and item, wherever its row is now.
    const core::team::Disagreement* current = m_disputeModel->at(currentDispute());
    const std::optional<std::pair<qint64, QString>> keep =
        current ? std::optional(std::pair<qint64, QString>(current->taskId, toQString(current->item))) : std::nullopt;
    m_report = report;
    m_annotations = std::move(annotations);
    m_rubric = rubric;
    QStringList names;
    for (const std::string& n : report.reviewers) {
        names << toQString(n);
    }
    m_summary->setText(
        report.reviewers.size() < 2
            ? tr("This review holds scores of %n reviewer(s); merge reviews to compare reviewers.", nullptr,
                 static_cast<int>(report.reviewers.size()))
            : tr("%1 reviewers (%2). Overall alpha %3 (interval, scores scaled to 0..1), %4 "
                 "disagreements.")
                  .arg(report.reviewers.size())
                  .arg(names.join(QStringLiteral(", ")), AgreementItemsModel::figureText(report.overall.alpha))
                  .arg(report.disagreements.size()));
    m_itemModel->setReport(report, rubric);
    m_items->resizeRowsToContents();
    fillDisputes();
    if (keep) {
        if (const int row = m_disputeModel->rowOf(keep->first, keep->second); row >= 0) {
            m_disputes->setCurrentIndex(m_disputeModel->index(row, 0));
        }
    }
    m_reviewerModel->setReviewers(names);
}

int AgreementPane::currentDispute() const {
    return m_disputes->currentIndex().isValid() ? m_disputes->currentIndex().row() : -1;
}

void AgreementPane::fillDisputes() {
    m_disputeModel->setDisagreements(m_report.disagreements);
    m_disputes->resizeRowsToContents();
    m_detailModel->setDispute(nullptr, {});
    m_agree->setEnabled(false);
}

void AgreementPane::showDispute(int row) {
    const core::team::Disagreement* d = m_disputeModel->at(row);
    m_detailModel->setDispute(d, m_annotations);
    if (d == nullptr) {
        m_agree->setEnabled(false);
        return;
    }
    m_detail->resizeRowsToContents();
    if (m_rubric != nullptr) {
        if (const core::RubricItem* item = m_rubric->findItem(d->item)) {
            m_value->setRange(item->scale.minValue(), item->scale.maxValue());
        }
    }
    m_value->setValue(d->agreed.value_or(d->scores.front().second));
    m_agree->setEnabled(!m_reason->text().trimmed().isEmpty());
}

void AgreementPane::emitLens() {
    QHash<QString, QColor> colours;
    const QStringList& names = m_reviewerModel->reviewers();
    for (int i = 0; i < names.size() && m_lens->isChecked(); ++i) {
        colours.insert(names[i], reviewerColour(i));
    }
    emit reviewerLensChanged(colours, m_reviewerModel->hidden());
}

} // namespace kl::views

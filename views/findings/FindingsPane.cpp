#include "findings/FindingsPane.h"

#include "findings/FindingsModel.h"
#include "findings/RooflinePlot.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace kl::views {

FindingsPane::FindingsPane(QWidget* parent) : QWidget(parent) {
    m_model = new FindingsModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FindingsModel::SortRole);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("findingsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FindingsModel::Severity, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    // Figures are the longest text (several figures with thresholds): they get what the other columns leave.
    header->setSectionResizeMode(FindingsModel::Figures, QHeaderView::Stretch);
    header->setStretchLastSection(false);
    const QFontMetrics fm = m_table->fontMetrics();
    // Wide enough for what the columns hold at their longest: "blocking", "accumulate-low-precision".
    header->resizeSection(FindingsModel::Severity, fm.horizontalAdvance(QStringLiteral("blocking")) + 36);
    header->resizeSection(FindingsModel::Rule, fm.horizontalAdvance(QStringLiteral("dma-small-transfers")) + 24);
    header->resizeSection(FindingsModel::Title, fm.horizontalAdvance(QLatin1Char('m')) * 24);
    header->resizeSection(FindingsModel::RubricItem, fm.horizontalAdvance(QStringLiteral("perf.utilization")) + 24);
    header->resizeSection(FindingsModel::Status, fm.horizontalAdvance(QStringLiteral("accepted (annotation)")) + 16);
    m_table->installEventFilter(this);
    // selectionChanged, not currentRowChanged: a mouse click moves the current index before it selects the row.
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateButtons();
        if (const QString key = selectedKey(); !key.isEmpty()) {
            emit evidenceRequested(key);
        }
    });
    connect(m_table, &QTableView::doubleClicked, this,
            [this] { request(&FindingsPane::evidenceRequested, m_evidence); });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] {
        updateButtons();
        updateSummary();
    });

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("findingsSummary"));
    m_summary->setWordWrap(true);
    auto* list = new QWidget;
    auto* listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(4, 4, 4, 4);
    listLayout->addWidget(m_summary);
    listLayout->addWidget(m_table, 1);
    listLayout->addWidget(buildButtons());

    m_roofline = new RooflinePlot;
    m_tabs = new QTabWidget;
    m_tabs->addTab(list, tr("Findings"));
    m_tabs->addTab(m_roofline, tr("Roofline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    setMessage(tr("No run yet: findings appear after a kernel is simulated."));
    setReviewAvailable(false);
}

QWidget* FindingsPane::buildButtons() {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_evidence = new QPushButton(tr("Go to Evidence"));
    m_evidence->setToolTip(tr("Show the finding's instructions, time range and source lines (Enter)"));
    m_accept = new QPushButton(tr("Accept"));
    m_dismiss = new QPushButton(tr("Dismiss..."));
    m_restore = new QPushButton(tr("Restore"));
    m_restore->setToolTip(tr("Undo the dismissal: the finding is open again"));
    connect(m_evidence, &QPushButton::clicked, this, [this] { request(&FindingsPane::evidenceRequested, m_evidence); });
    connect(m_accept, &QPushButton::clicked, this, [this] { request(&FindingsPane::acceptRequested, m_accept); });
    connect(m_dismiss, &QPushButton::clicked, this, [this] { request(&FindingsPane::dismissRequested, m_dismiss); });
    connect(m_restore, &QPushButton::clicked, this, [this] { request(&FindingsPane::restoreRequested, m_restore); });
    for (QPushButton* b : {m_evidence, m_accept, m_dismiss, m_restore}) {
        b->setAutoDefault(false);
        layout->addWidget(b);
    }
    layout->addStretch(1);
    return row;
}

void FindingsPane::request(void (FindingsPane::*signal)(const QString&), const QPushButton* button) {
    const QString key = selectedKey();
    if (!key.isEmpty() && button->isEnabled()) {
        emit(this->*signal)(key);
    }
}

void FindingsPane::setFindings(std::vector<core::findings::Finding> findings) {
    m_message.clear();
    m_model->setFindings(std::move(findings));
    fitTitleColumn();
    updateSummary();
    updateButtons();
}

void FindingsPane::fitTitleColumn() {
    // Titles as long as they are, but never so wide that the figures have no room.
    m_table->resizeColumnToContents(FindingsModel::Title);
    const int cap = std::max(200, m_table->viewport()->width() * 2 / 5);
    if (m_table->columnWidth(FindingsModel::Title) > cap) {
        m_table->setColumnWidth(FindingsModel::Title, cap);
    }
}

void FindingsPane::setDecisions(std::vector<core::findings::FindingDecision> decisions) {
    m_model->setDecisions(std::move(decisions)); // dataChanged updates buttons and summary
}

void FindingsPane::setMessage(const QString& text) {
    m_message = text;
    m_model->setFindings({});
    m_summary->setText(text);
    updateButtons();
}

void FindingsPane::setRoofline(std::optional<core::findings::RooflinePoint> point) {
    m_roofline->setPoint(point);
}

void FindingsPane::setReviewAvailable(bool available, const QString& whyNot) {
    m_reviewAvailable = available;
    m_whyNot = whyNot.isEmpty() ? tr("Open a review file (File > Open, or File > New Review) to accept or dismiss "
                                     "findings: decisions are saved in it.")
                                : whyNot;
    updateButtons();
}

QString FindingsPane::selectedKey() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : m_proxy->mapToSource(rows.first()).data(FindingsModel::KeyRole).toString();
}

bool FindingsPane::selectKey(const QString& key) {
    const int row = m_model->rowOfKey(key);
    if (row < 0) {
        return false;
    }
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

void FindingsPane::updateButtons() {
    const int row = m_model->rowOfKey(selectedKey());
    const auto* decision = m_model->decisionAt(row);
    const bool accepted = decision != nullptr && decision->acceptedAs.has_value();
    const bool dismissed = decision != nullptr && decision->dismissal.has_value();
    m_evidence->setEnabled(decision != nullptr);
    m_accept->setEnabled(m_reviewAvailable && decision != nullptr && !accepted && !dismissed);
    m_dismiss->setEnabled(m_reviewAvailable && decision != nullptr && !accepted && !dismissed);
    m_restore->setEnabled(m_reviewAvailable && dismissed);
    if (!m_reviewAvailable) {
        m_accept->setToolTip(m_whyNot);
        m_dismiss->setToolTip(m_whyNot);
        m_restore->setToolTip(m_whyNot);
        return;
    }
    m_accept->setToolTip(accepted ? tr("Already accepted: it is an annotation of this task (Ctrl+Z undoes it)")
                                  : tr("Write the finding to the review as an annotation: rubric item, severity, "
                                       "text and anchors from the finding (A)"));
    m_dismiss->setToolTip(dismissed ? tr("Already dismissed; Restore opens it again")
                                    : tr("Set the finding aside with a reason, kept in the review file (D)"));
    m_restore->setToolTip(tr("Undo the dismissal: the finding is open again"));
}

void FindingsPane::updateSummary() {
    if (!m_message.isEmpty()) {
        m_summary->setText(m_message);
        return;
    }
    std::array<int, 5> bySeverity{};
    int accepted = 0;
    int dismissed = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        ++bySeverity[static_cast<std::size_t>(m_model->findingAt(row)->severity)];
        accepted += m_model->decisionAt(row)->acceptedAs ? 1 : 0;
        dismissed += m_model->decisionAt(row)->dismissal ? 1 : 0;
    }
    if (m_model->rowCount() == 0) {
        m_summary->setText(tr("No findings: none of the rules applies to this run."));
        return;
    }
    QStringList counts;
    for (std::size_t s = 0; s < bySeverity.size(); ++s) {
        if (bySeverity[s] > 0) {
            const auto name = core::toString(static_cast<core::Severity>(s));
            counts << QStringLiteral("%1 %2")
                          .arg(bySeverity[s])
                          .arg(QLatin1String(name.data(), static_cast<qsizetype>(name.size())));
        }
    }
    m_summary->setText(tr("%n finding(s): %1. %2 accepted, %3 dismissed. Enter: evidence, A: accept, D: dismiss.", "",
                          m_model->rowCount())
                           .arg(counts.join(QStringLiteral(", ")))
                           .arg(accepted)
                           .arg(dismissed));
}

bool FindingsPane::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_table || event->type() != QEvent::KeyPress) {
        return QWidget::eventFilter(watched, event);
    }
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() & ~Qt::KeypadModifier) {
        return false; // Ctrl+Z and friends belong to the window
    }
    switch (key->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter: request(&FindingsPane::evidenceRequested, m_evidence); return true;
    // Taken here, before the table's type-to-search would jump to a row starting with the letter.
    case Qt::Key_A: request(&FindingsPane::acceptRequested, m_accept); return true;
    case Qt::Key_D: request(&FindingsPane::dismissRequested, m_dismiss); return true;
    default: return false;
    }
}

} // namespace kl::views

#include "source/HotLinesView.h"

#include "source/HotLinesModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace kl::views {

HotLinesView::HotLinesView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("hotLines"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_summary = new QLabel(tr("Simulate a kernel to see which lines cost the most."), this);
    m_summary->setWordWrap(true);
    m_summary->setContentsMargins(4, 2, 4, 2);
    m_model = new HotLinesModel(this);
    m_tree = new QTreeView(this);
    m_tree->setModel(m_model);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    // Room for the header and five lines, and for the line and cost columns: a crowded left dock area must not
    // squeeze the list to one row or cut its figures.
    m_tree->setMinimumHeight(m_tree->fontMetrics().height() * 7 + 8);
    setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 26);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(HotLinesModel::TimeColumn, Qt::DescendingOrder);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(HotLinesModel::CodeColumn, QHeaderView::Stretch);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeView::activated, this,
            [this](const QModelIndex& index) { emit lineActivated(index.data(HotLinesModel::LineRole).toInt()); });
    connect(m_tree, &QTreeView::clicked, this,
            [this](const QModelIndex& index) { emit lineActivated(index.data(HotLinesModel::LineRole).toInt()); });
}

void HotLinesView::setSummary(const QString& text) {
    m_summary->setText(text);
}

} // namespace kl::views

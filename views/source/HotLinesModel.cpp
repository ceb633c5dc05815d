#include "source/HotLinesModel.h"

#include "source/HeatMargin.h"

#include <QBrush>

#include <algorithm>

namespace kl::views {

HotLinesModel::HotLinesModel(QObject* parent) : QAbstractTableModel(parent) {}

void HotLinesModel::setTable(const core::LineCostTable& table, const QStringList& lineText) {
    beginResetModel();
    m_rows = table.byCost();
    m_text = lineText;
    m_maxShare = table.maxShare;
    sortRows();
    endResetModel();
}

void HotLinesModel::clear() {
    beginResetModel();
    m_rows.clear();
    m_text.clear();
    m_maxShare = 0;
    endResetModel();
}

int HotLinesModel::lineAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].line : 0;
}

int HotLinesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int HotLinesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HotLinesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == LineRole) {
        return row.line;
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case LineColumn: return row.line;
        case TimeColumn: { // milliseconds past 1000 us, as the timeline's axis reads a run that long
            const double us = static_cast<double>(row.timePs) / 1e6;
            return us >= 1000 ? QStringLiteral("%1 ms").arg(us / 1000, 0, 'f', 2)
                              : QStringLiteral("%1 us").arg(us, 0, 'f', 2);
        }
        case ShareColumn: return QStringLiteral("%1%").arg(100.0 * row.share, 0, 'f', 1);
        case CountColumn: return row.instructions;
        case CodeColumn: return row.line >= 1 && row.line <= m_text.size() ? m_text[row.line - 1].trimmed() : QString();
        default: break;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != CodeColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::BackgroundRole && index.column() == ShareColumn) {
        return QBrush(HeatMargin::colour(core::heatStep(row.share, m_maxShare, HeatMargin::kSteps)));
    }
    if (role == Qt::ForegroundRole && index.column() == ShareColumn) {
        const bool dark = core::heatStep(row.share, m_maxShare, HeatMargin::kSteps) >= HeatMargin::kSteps - 2;
        return QBrush(dark ? Qt::white : Qt::black);
    }
    if (role == Qt::ToolTipRole) {
        return tr("Line %1: %2 instructions, busy %3 us summed over their lanes (%4% of all lanes' busy time)")
            .arg(row.line)
            .arg(row.instructions)
            .arg(static_cast<double>(row.timePs) / 1e6, 0, 'f', 3)
            .arg(100.0 * row.share, 0, 'f', 2);
    }
    return {};
}

QVariant HotLinesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case TimeColumn: return tr("Busy time of the line's instructions, summed over the lanes they ran on");
        case ShareColumn:
            return tr("The line's part of the busy time summed over every engine and DMA queue (all lines together: "
                      "at most 100%)");
        default: return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case LineColumn: return tr("Line");
    case TimeColumn: return tr("Time");
    case ShareColumn: return tr("Share");
    case CountColumn: return tr("Instr.");
    case CodeColumn: return tr("Code");
    default: return {};
    }
}

void HotLinesModel::sortRows() {
    const int column = m_sortColumn;
    const auto key = [column](const core::LineCost& c) -> std::pair<double, int> {
        switch (column) {
        case LineColumn:
        case CodeColumn: return {static_cast<double>(c.line), 0};
        case CountColumn: return {static_cast<double>(c.instructions), -c.line};
        default: return {static_cast<double>(c.timePs), -c.line}; // ties: lower line first when descending
        }
    };
    const bool ascending = m_sortOrder == Qt::AscendingOrder;
    std::stable_sort(m_rows.begin(), m_rows.end(), [&](const core::LineCost& a, const core::LineCost& b) {
        return ascending ? key(a) < key(b) : key(b) < key(a);
    });
}

void HotLinesModel::sort(int column, Qt::SortOrder order) {
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> oldLines;
    for (const auto& index : before) {
        oldLines.push_back(lineAt(index.row()));
    }
    sortRows();
    for (qsizetype i = 0; i < before.size(); ++i) {
        const auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const core::LineCost& c) {
            return c.line == oldLines[static_cast<std::size_t>(i)];
        });
        changePersistentIndex(before[i], index(static_cast<int>(it - m_rows.begin()), before[i].column()));
    }
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace kl::views

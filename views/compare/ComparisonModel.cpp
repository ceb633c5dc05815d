#include "compare/ComparisonModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace kl::views {

namespace {

QString formatValue(const core::ComparisonRow& row, double value, bool signedValue) {
    const int decimals = row.unit.empty() ? 0 : (row.unit == "KiB" ? 0 : (row.unit == "us" ? 2 : 1));
    QString text = QString::number(value, 'f', decimals);
    if (signedValue && value > 0) {
        text.prepend(QLatin1Char('+'));
    }
    return text;
}

/// +1 when a larger B is better, -1 when a smaller B is better, 0 when neither (activity shares).
int betterDirection(const core::ComparisonRow& row) {
    if (row.key == "total_us" || row.key == "dma_exposed_us" || row.key == "dma_bytes_mib") {
        return -1;
    }
    if (row.key == "mfu_pct") {
        return 1;
    }
    return 0;
}

} // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setComparison(core::RunComparison comparison) {
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_comparison.rows().size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const core::ComparisonRow& row = m_comparison.rows()[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Figure:
            return row.unit.empty() ? QString::fromStdString(row.label)
                                    : QStringLiteral("%1 (%2)").arg(QString::fromStdString(row.label),
                                                                    QString::fromStdString(row.unit));
        case A: return formatValue(row, row.a, false);
        case B: return formatValue(row, row.b, false);
        case Delta: return formatValue(row, row.delta(), true);
        case DeltaPct: {
            const auto pct = row.deltaPct();
            return pct ? QStringLiteral("%1%2%").arg(*pct > 0 ? QStringLiteral("+") : QString()).arg(*pct, 0, 'f', 1)
                       : QStringLiteral("–");
        }
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromStdString(row.key);
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Figure ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::FontRole && row.key == "total_us") {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ForegroundRole && (index.column() == Delta || index.column() == DeltaPct)) {
        const int better = betterDirection(row);
        if (better == 0 || row.delta() == 0) {
            return {};
        }
        const bool good = (row.delta() > 0) == (better > 0);
        return QBrush(good ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb0, 0x24, 0x24));
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) {
        return {};
    }
    // The columns are narrow: "A" and "B" head them (the runs' titles stand over their timelines), the whole
    // title is the tooltip; a long title centred in a narrow header lost both ends.
    if (role == Qt::ToolTipRole) {
        const std::string& label = section == A ? m_comparison.labelA() : m_comparison.labelB();
        return (section == A || section == B) && !label.empty() ? QVariant(QString::fromStdString(label)) : QVariant();
    }
    switch (section) {
    case Figure: return tr("Figure");
    case A: return tr("A");
    case B: return tr("B");
    case Delta: return tr("Delta");
    case DeltaPct: return tr("Delta %");
    default: return {};
    }
}

} // namespace kl::views

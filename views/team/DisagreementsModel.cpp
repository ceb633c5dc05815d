#include "team/DisagreementsModel.h"

#include "common/QtText.h"

#include <QStringList>

namespace kl::views {

DisagreementsModel::DisagreementsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DisagreementsModel::setDisagreements(std::vector<core::team::Disagreement> disagreements) {
    beginResetModel();
    m_rows = std::move(disagreements);
    endResetModel();
}

const core::team::Disagreement* DisagreementsModel::at(int row) const {
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

int DisagreementsModel::rowOf(qint64 taskId, const QString& item) const {
    const std::string id = item.toStdString();
    for (std::size_t row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].taskId == taskId && m_rows[row].item == id) {
            return static_cast<int>(row);
        }
    }
    return -1;
}

int DisagreementsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DisagreementsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DisagreementsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case TaskAndItem: return tr("Task and item");
    case Scores: return tr("Scores");
    case Agreed: return tr("Agreed");
    default: return {};
    }
}

QString DisagreementsModel::text(const core::team::Disagreement& d, int column) const {
    switch (column) {
    case TaskAndItem: return toQString(d.taskTitle) + QLatin1Char('\n') + toQString(d.item);
    case Scores: {
        QStringList scores;
        for (const auto& [who, value] : d.scores) {
            scores << QStringLiteral("%1 %2").arg(toQString(who)).arg(value);
        }
        return scores.join(QStringLiteral("\n"));
    }
    case Agreed: return d.agreed ? QString::number(*d.agreed) : tr("-");
    default: return {};
    }
}

QString DisagreementsModel::tip(const core::team::Disagreement& d, int column) const {
    switch (column) {
    case TaskAndItem:
        return tr("%1\n%2\nspread %3 % of the scale")
            .arg(toQString(d.taskTitle), toQString(d.item))
            .arg(qRound(d.spread * 100));
    case Agreed: return d.agreed ? tr("agreed grade") : tr("not agreed yet");
    default: return text(d, column);
    }
}

QVariant DisagreementsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const core::team::Disagreement& d = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return text(d, index.column());
    case Qt::ToolTipRole: return tip(d, index.column());
    case TaskIdRole: return QVariant::fromValue<qint64>(d.taskId);
    case ItemRole: return toQString(d.item);
    default: return {};
    }
}

} // namespace kl::views

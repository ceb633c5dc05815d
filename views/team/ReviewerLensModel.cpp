#include "team/ReviewerLensModel.h"

#include "team/AgreementPane.h"

#include <QIcon>
#include <QPixmap>

namespace kl::views {

ReviewerLensModel::ReviewerLensModel(QObject* parent) : QAbstractListModel(parent) {}

void ReviewerLensModel::setReviewers(const QStringList& names) {
    beginResetModel();
    if (m_names.isEmpty()) {
        m_hidden.clear();
    }
    QSet<QString> kept;
    for (const QString& name : names) {
        if (m_hidden.contains(name)) {
            kept.insert(name);
        }
    }
    m_hidden = kept;
    m_names = names;
    endResetModel();
}

void ReviewerLensModel::clear() {
    beginResetModel();
    m_names.clear();
    m_hidden.clear();
    endResetModel();
}

int ReviewerLensModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_names.size());
}

QVariant ReviewerLensModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const QString& name = m_names[index.row()];
    switch (role) {
    case Qt::DisplayRole: return name;
    case Qt::DecorationRole: { // a small swatch, the size the list always showed
        QPixmap swatch(12, 12);
        swatch.fill(AgreementPane::reviewerColour(index.row()));
        return QIcon(swatch);
    }
    case Qt::CheckStateRole: return m_hidden.contains(name) ? Qt::Unchecked : Qt::Checked;
    default: return {};
    }
}

Qt::ItemFlags ReviewerLensModel::flags(const QModelIndex& index) const {
    return QAbstractListModel::flags(index) | (index.isValid() ? Qt::ItemIsUserCheckable : Qt::NoItemFlags);
}

bool ReviewerLensModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::CheckStateRole || !checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return false;
    }
    const QString& name = m_names[index.row()];
    const bool hide = value.value<Qt::CheckState>() == Qt::Unchecked;
    if (hide == m_hidden.contains(name)) {
        return true;
    }
    if (hide) {
        m_hidden.insert(name);
    } else {
        m_hidden.remove(name);
    }
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit visibilityChanged();
    return true;
}

} // namespace kl::views

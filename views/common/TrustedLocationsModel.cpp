#include "common/TrustedLocationsModel.h"

#include "common/QtText.h"

namespace kl::views {

TrustedLocationsModel::TrustedLocationsModel(QObject* parent) : QAbstractTableModel(parent) {}

QString TrustedLocationsModel::kindText(core::TrustKind kind) {
    switch (kind) {
    case core::TrustKind::Content: return tr("Content");
    case core::TrustKind::Folder: return tr("Folder");
    case core::TrustKind::Author: return tr("Author");
    }
    return {};
}

void TrustedLocationsModel::setEntries(std::vector<core::TrustEntry> entries) {
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

int TrustedLocationsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int TrustedLocationsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TrustedLocationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case KindColumn: return tr("Kind");
    case ValueColumn: return tr("Trusted");
    case LabelColumn: return tr("Given for");
    case AddedColumn: return tr("Added");
    default: return {};
    }
}

QString TrustedLocationsModel::text(const core::TrustEntry& entry, int column) const {
    switch (column) {
    case KindColumn: return kindText(entry.kind);
    case ValueColumn: return toQString(entry.value);
    case LabelColumn: return toQString(entry.label);
    case AddedColumn: return toQString(entry.added).left(19).replace(QLatin1Char('T'), QLatin1Char(' '));
    default: return {};
    }
}

QVariant TrustedLocationsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const core::TrustEntry& entry = m_entries[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return text(entry, index.column());
    // Rich text, so a long path wraps in the tooltip instead of running off the screen.
    case Qt::ToolTipRole: return QStringLiteral("<p>%1</p>").arg(text(entry, index.column()).toHtmlEscaped());
    case KindRole: return static_cast<int>(entry.kind);
    case ValueRole: return toQString(entry.value);
    default: return {};
    }
}

} // namespace kl::views

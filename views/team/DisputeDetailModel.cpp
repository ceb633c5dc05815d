#include "team/DisputeDetailModel.h"

#include "common/QtText.h"

#include <QStringList>

namespace kl::views {

DisputeDetailModel::DisputeDetailModel(QObject* parent) : QAbstractTableModel(parent) {}

void DisputeDetailModel::setDispute(const core::team::Disagreement* dispute,
                                    const std::vector<core::Annotation>& annotations) {
    beginResetModel();
    m_rows.clear();
    if (dispute != nullptr) {
        for (const auto& [who, value] : dispute->scores) {
            QStringList said;
            for (const core::Annotation& a : annotations) {
                if (a.taskId == dispute->taskId && a.author == who && a.rubricItem == dispute->item) {
                    said << toQString(a.text);
                }
            }
            m_rows.push_back({toQString(who), value,
                              said.isEmpty() ? tr("(no annotation on this item)") : said.join(QStringLiteral("\n"))});
        }
    }
    endResetModel();
}

int DisputeDetailModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DisputeDetailModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DisputeDetailModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Reviewer: return tr("Reviewer");
    case Score: return tr("Score");
    case Said: return tr("What they wrote on this item");
    default: return {};
    }
}

QVariant DisputeDetailModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        (role != Qt::DisplayRole && role != Qt::ToolTipRole)) {
        return {};
    }
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case Reviewer: return row.reviewer;
    case Score: return QString::number(row.score);
    case Said: return row.said;
    default: return {};
    }
}

} // namespace kl::views

#include "team/AgreementItemsModel.h"

#include "common/QtText.h"

namespace kl::views {

AgreementItemsModel::AgreementItemsModel(QObject* parent) : QAbstractTableModel(parent) {}

QString AgreementItemsModel::figureText(const core::team::Figure& f) {
    return f.value ? QString::number(*f.value, 'f', 3) : QStringLiteral("-");
}

void AgreementItemsModel::setReport(const core::team::AgreementReport& report, const core::Rubric* rubric) {
    beginResetModel();
    m_rows.clear();
    for (const auto& a : report.items) {
        const core::RubricItem* item = rubric != nullptr ? rubric->findItem(a.item) : nullptr;
        m_rows.push_back({a, toQString(item != nullptr ? item->title : a.item)});
    }
    if (!report.items.empty()) {
        m_rows.push_back({report.overall, tr("Overall")});
    }
    endResetModel();
}

void AgreementItemsModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int AgreementItemsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AgreementItemsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AgreementItemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Item: return tr("Item");
        case Alpha: return tr("α");
        case Kappa: return tr("κ");
        case Agree: return tr("Agree");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Alpha: return tr("Krippendorff's alpha at the item's level of measurement");
        case Kappa: return tr("Cohen's kappa for two reviewers, Fleiss' kappa for more");
        case Agree: return tr("Share of agreeing pairs of scores");
        default: return {};
        }
    }
    return {};
}

QString AgreementItemsModel::tip(const Row& row, int column) const {
    const core::team::ItemAgreement& a = row.agreement;
    const QString notes = toQString(a.alpha.note + (a.kappa.note.empty() ? "" : "\n" + a.kappa.note));
    switch (column) {
    case Item:
        return tr("%1\nlevel: %2; %3 tasks, %4 reviewers")
            .arg(toQString(a.item), QString::fromLatin1(core::team::levelName(a.level)))
            .arg(a.tasks)
            .arg(a.reviewers);
    case Alpha: return notes.isEmpty() ? tr("Krippendorff's alpha") : notes;
    case Kappa:
        return a.kappaMethod.empty() ? (notes.isEmpty() ? tr("no kappa") : notes)
                                     : tr("%1's kappa").arg(a.kappaMethod == "cohen" ? tr("Cohen") : tr("Fleiss"));
    case Agree: return tr("share of agreeing pairs of scores");
    default: return {};
    }
}

QVariant AgreementItemsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Item: return row.title;
        case Alpha: return figureText(row.agreement.alpha);
        case Kappa: return figureText(row.agreement.kappa);
        case Agree: return figureText(row.agreement.percentAgreement);
        default: return {};
        }
    case Qt::ToolTipRole: return tip(row, index.column());
    case LevelRole: return QString::fromLatin1(core::team::levelName(row.agreement.level));
    default: return {};
    }
}

} // namespace kl::views

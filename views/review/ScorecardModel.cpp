#include "review/ScorecardModel.h"

#include "common/QtText.h"

#include <QFont>

namespace kl::views {

namespace {

// internalId of an index: 0 for an area row, area + 1 for an item row, so parent() needs no lookup.
constexpr quintptr kAreaRow = 0;

} // namespace

ScorecardModel::ScorecardModel(QObject* parent) : QAbstractItemModel(parent) {}

void ScorecardModel::setRubric(const core::Rubric* rubric) {
    beginResetModel();
    m_rubric = rubric;
    endResetModel();
}

void ScorecardModel::setScorecard(std::optional<core::Scorecard> card) {
    if (hasRows() && card) {
        // The rows come from the rubric, which did not change: only the figures did.
        m_card = std::move(card);
        const int areas = rowCount();
        emit dataChanged(index(0, 0), index(areas - 1, ColumnCount - 1));
        for (int a = 0; a < areas; ++a) {
            const QModelIndex area = index(a, 0);
            if (const int items = rowCount(area); items > 0) {
                emit dataChanged(index(0, 0, area), index(items - 1, ColumnCount - 1, area));
            }
        }
        return;
    }
    beginResetModel();
    m_card = std::move(card);
    endResetModel();
}

const core::ItemScore* ScorecardModel::scoreOf(const std::string& itemId) const {
    if (!m_card) {
        return nullptr;
    }
    for (const auto& area : m_card->areas) {
        for (const auto& item : area.items) {
            if (item.itemId == itemId) {
                return &item;
            }
        }
    }
    return nullptr;
}

const core::RubricItem* ScorecardModel::itemAt(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == kAreaRow || !hasRows()) {
        return nullptr;
    }
    const auto& area = m_rubric->areas[index.internalId() - 1];
    return &area.items[static_cast<std::size_t>(index.row())];
}

QModelIndex ScorecardModel::indexOfItem(const QString& itemId, int column) const {
    if (!hasRows()) {
        return {};
    }
    const std::string id = itemId.toStdString();
    for (std::size_t a = 0; a < m_rubric->areas.size(); ++a) {
        const auto& items = m_rubric->areas[a].items;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].id == id) {
                return createIndex(static_cast<int>(i), column, static_cast<quintptr>(a + 1));
            }
        }
    }
    return {};
}

QModelIndex ScorecardModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) {
        return {};
    }
    return parent.isValid() ? createIndex(row, column, static_cast<quintptr>(parent.row() + 1))
                            : createIndex(row, column, kAreaRow);
}

QModelIndex ScorecardModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kAreaRow) {
        return {};
    }
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kAreaRow);
}

int ScorecardModel::rowCount(const QModelIndex& parent) const {
    if (!hasRows() || parent.column() > 0) {
        return 0;
    }
    if (!parent.isValid()) {
        return static_cast<int>(m_rubric->areas.size());
    }
    if (parent.internalId() != kAreaRow) {
        return 0; // items have no children
    }
    return static_cast<int>(m_rubric->areas[static_cast<std::size_t>(parent.row())].items.size());
}

int ScorecardModel::columnCount(const QModelIndex& /*parent*/) const {
    return ColumnCount;
}

QVariant ScorecardModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    return section == ItemColumn ? tr("Item") : section == ScoreColumn ? tr("Score") : QVariant();
}

Qt::ItemFlags ScorecardModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    if (index.column() == ScoreColumn && itemAt(index) != nullptr) {
        f |= Qt::ItemIsEditable;
    }
    return f;
}

QVariant ScorecardModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return {};
    }
    if (const core::RubricItem* item = itemAt(index)) {
        return itemData(*item, index.column(), role);
    }
    return areaData(index.row(), index.column(), role);
}

QVariant ScorecardModel::areaData(int area, int column, int role) const {
    const core::RubricArea& spec = m_rubric->areas[static_cast<std::size_t>(area)];
    if (column == ItemColumn && role == Qt::DisplayRole) {
        return toQString(spec.title);
    }
    if (column == ItemColumn && role == Qt::FontRole) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (column == ScoreColumn && role == Qt::DisplayRole) {
        for (const auto& a : m_card->areas) {
            if (a.areaId == spec.id && a.score) {
                return QString::number(*a.score, 'f', 2);
            }
        }
    }
    return {};
}

QString ScorecardModel::scoreText(const core::RubricItem& item) const {
    const core::ItemScore* score = scoreOf(item.id);
    return score && score->value && item.scale.accepts(*score->value) ? toQString(item.scale.describe(*score->value))
                                                                      : tr("unscored");
}

QVariant ScorecardModel::itemData(const core::RubricItem& item, int column, int role) const {
    if (column == ItemColumn) {
        switch (role) {
        case Qt::DisplayRole: {
            const core::ItemScore* score = scoreOf(item.id);
            if (score && score->annotationCount > 0) { // the count rides with the name: no column to spare
                return tr("%1 (%n annotation(s))", nullptr, score->annotationCount).arg(toQString(item.title));
            }
            return toQString(item.title);
        }
        case Qt::ToolTipRole: return toQString(item.title);
        case ItemIdRole: return toQString(item.id);
        default: return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: return scoreText(item);
    case Qt::EditRole: {
        const core::ItemScore* score = scoreOf(item.id);
        return score && score->value && item.scale.accepts(*score->value) ? *score->value : kUnscored;
    }
    case ItemIdRole: return toQString(item.id);
    case ChoicesRole: {
        QStringList labels{tr("unscored")};
        for (int v = item.scale.minValue(); v <= item.scale.maxValue(); ++v) {
            labels << toQString(item.scale.describe(v));
        }
        return labels;
    }
    case ChoiceValuesRole: {
        QVariantList values{kUnscored};
        for (int v = item.scale.minValue(); v <= item.scale.maxValue(); ++v) {
            values << v;
        }
        return values;
    }
    default: return {};
    }
}

bool ScorecardModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    const core::RubricItem* item = itemAt(index);
    if (role != Qt::EditRole || index.column() != ScoreColumn || item == nullptr || !value.canConvert<int>()) {
        return false;
    }
    const int v = value.toInt();
    if (v != kUnscored && !item->scale.accepts(v)) {
        return false;
    }
    const QPersistentModelIndex cell(index);
    emit scoreChosen(toQString(item->id), v);
    // The owner answered synchronously: a taken score came back through setScorecard; one not taken (no reviewer
    // name given) must not stay in the editor, so the cell is announced again either way.
    if (cell.isValid()) {
        emit dataChanged(cell, cell);
    }
    return true;
}

} // namespace kl::views

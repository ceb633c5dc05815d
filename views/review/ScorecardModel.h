#pragma once

#include "rubric/Rubric.h"
#include "rubric/Scorecard.h"

#include <QAbstractItemModel>

#include <optional>

namespace kl::views {

/// The rubric scorecard of the current task as a two-level tree: one row per rubric area (bold, with the area's
/// score) and under it one row per item (its title, with the number of annotations citing it, and its score).
/// Rows exist only while both a rubric and a scorecard are set.
///
/// The score cell is editable: ChoicesRole and ChoiceValuesRole list "unscored" and every level of the item's
/// scale, and setData() on it emits scoreChosen() rather than changing the model. The owner saves the score
/// (through the review's undo stack) and hands back the new scorecard, which updates the rows in place, so the
/// view keeps its current row and open editors. A score the owner did not take leaves the cell as it was.
class ScorecardModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { ItemColumn, ScoreColumn, ColumnCount };
    enum Role { ItemIdRole = Qt::UserRole + 1, ChoicesRole, ChoiceValuesRole };
    static constexpr int kUnscored = -1; ///< the score value of "unscored"

    explicit ScorecardModel(QObject* parent = nullptr);

    void setRubric(const core::Rubric* rubric);
    void setScorecard(std::optional<core::Scorecard> card);
    [[nodiscard]] const core::Rubric* rubric() const { return m_rubric; }
    [[nodiscard]] const std::optional<core::Scorecard>& scorecard() const { return m_card; }
    /// The rubric item of an item row (any column); nullptr for an area row or an invalid index.
    [[nodiscard]] const core::RubricItem* itemAt(const QModelIndex& index) const;
    /// The item row of a rubric item id in `column`; invalid when the tree has no such item.
    [[nodiscard]] QModelIndex indexOfItem(const QString& itemId, int column = ItemColumn) const;

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    void scoreChosen(const QString& itemId, int value); ///< value kUnscored: clear the score

private:
    [[nodiscard]] bool hasRows() const { return m_rubric != nullptr && m_card.has_value(); }
    [[nodiscard]] const core::ItemScore* scoreOf(const std::string& itemId) const;
    [[nodiscard]] QVariant areaData(int area, int column, int role) const;
    [[nodiscard]] QVariant itemData(const core::RubricItem& item, int column, int role) const;
    [[nodiscard]] QString scoreText(const core::RubricItem& item) const;

    const core::Rubric* m_rubric = nullptr;
    std::optional<core::Scorecard> m_card;
};

} // namespace kl::views

#pragma once

#include <QStyledItemDelegate>

namespace kl::views {

/// Edits a score cell of the ScorecardModel with a combo box of the item's choices (ChoicesRole and
/// ChoiceValuesRole). The pane keeps one open on every item row, as the scorecard always showed them: choosing
/// an entry (mouse or keyboard) commits at once, without leaving the editor.
class ScoreChoiceDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    [[nodiscard]] QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

} // namespace kl::views

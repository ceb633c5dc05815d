#include "review/ScoreChoiceDelegate.h"

#include "review/ScorecardModel.h"

#include <QComboBox>

#include <algorithm>

namespace kl::views {

QWidget* ScoreChoiceDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& /*option*/,
                                           const QModelIndex& index) const {
    auto* box = new QComboBox(parent);
    // The dock is narrow: a compact box; the full wording is in the drop-down list and the tooltip.
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(6);
    const QStringList labels = index.data(ScorecardModel::ChoicesRole).toStringList();
    const QVariantList values = index.data(ScorecardModel::ChoiceValuesRole).toList();
    for (qsizetype i = 0; i < labels.size() && i < values.size(); ++i) {
        box->addItem(labels[i], values[i]);
    }
    // `activated` is the user's choice only (not setEditorData's), so a model update never writes a score back.
    // createEditor is const by Qt's signature; committing is what the delegate exists for.
    auto* self = const_cast<ScoreChoiceDelegate*>(this);
    connect(box, &QComboBox::activated, self, [self, box] { emit self->commitData(box); });
    return box;
}

void ScoreChoiceDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    auto* box = qobject_cast<QComboBox*>(editor);
    if (box == nullptr) {
        return;
    }
    box->setCurrentIndex(std::max(0, box->findData(index.data(Qt::EditRole))));
    box->setToolTip(box->currentText());
}

void ScoreChoiceDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
    // The view also commits when the box loses focus: only a changed choice is a new score (and an undo step).
    auto* box = qobject_cast<QComboBox*>(editor);
    if (box != nullptr && box->currentData() != index.data(Qt::EditRole)) {
        model->setData(index, box->currentData(), Qt::EditRole);
    }
}

} // namespace kl::views

#pragma once

#include <QStyledItemDelegate>

class QTreeView;

namespace kl::views {

/// Row heights for word-wrapped text in a tree: QTreeView asks its delegate for a size without the column's
/// width, so wrapped text kept one line and was cut ("Same ..."). This delegate measures the text at the width
/// its column has now (less the indentation of its depth), and re-lays the tree out when a column is resized.
class WrappingItemDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit WrappingItemDelegate(QTreeView* view);

    [[nodiscard]] QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    QTreeView* m_view;
};

} // namespace kl::views

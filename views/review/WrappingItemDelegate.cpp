#include "review/WrappingItemDelegate.h"

#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace kl::views {

WrappingItemDelegate::WrappingItemDelegate(QTreeView* view) : QStyledItemDelegate(view), m_view(view) {
    connect(view->header(), &QHeaderView::sectionResized, view, [view] { view->doItemsLayout(); });
}

QSize WrappingItemDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (opt.text.isEmpty()) {
        return size;
    }
    int depth = 0;
    for (QModelIndex parent = index.parent(); parent.isValid(); parent = parent.parent()) {
        ++depth;
    }
    const int indent = index.column() == 0 ? m_view->indentation() * (depth + (m_view->rootIsDecorated() ? 1 : 0)) : 0;
    const int margins = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 4;
    const int width = std::max(40, m_view->header()->sectionSize(index.column()) - indent - margins);
    const QRect text = opt.fontMetrics.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, opt.text);
    size.setHeight(std::max(size.height(), text.height() + 6));
    return size;
}

} // namespace kl::views

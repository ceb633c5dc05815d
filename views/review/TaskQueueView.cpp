#include "review/TaskQueueView.h"

#include "review/TaskQueueModel.h"

namespace kl::views {

TaskQueueView::TaskQueueView(QWidget* parent) : QListView(parent), m_model(new TaskQueueModel(this)) {
    setModel(m_model);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setUniformItemSizes(true);
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { emit currentRowChanged(current.isValid() ? current.row() : -1); });
}

int TaskQueueView::currentRow() const {
    return currentIndex().isValid() ? currentIndex().row() : -1;
}

void TaskQueueView::setCurrentRow(int row) {
    setCurrentIndex(m_model->index(row));
}

} // namespace kl::views

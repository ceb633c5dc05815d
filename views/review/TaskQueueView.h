#pragma once

#include <QListView>

namespace kl::views {

class TaskQueueModel;

/// The task queue dock: a list view over its own TaskQueueModel. It reports the current row as a number (what
/// the ReviewController steps through with Alt+Up / Alt+Down) and lets the owner set it.
class TaskQueueView : public QListView {
    Q_OBJECT
public:
    explicit TaskQueueView(QWidget* parent = nullptr);

    [[nodiscard]] TaskQueueModel* taskModel() const { return m_model; }
    [[nodiscard]] int currentRow() const; ///< -1 when none
    void setCurrentRow(int row);

signals:
    /// The current row changed, by the user or by setCurrentRow; -1 when the queue lost its current row.
    void currentRowChanged(int row);

private:
    TaskQueueModel* m_model;
};

} // namespace kl::views

#pragma once

#include "review/ReviewTypes.h"

#include <QAbstractListModel>

#include <optional>
#include <vector>

namespace kl::views {

/// The review's task queue as a list: one row per task in queue order, showing its status symbol, title and time
/// spent, with the folder and status in the tooltip. A task folder opened on its own (not part of a review) is
/// one row with only its title and no task id.
///
/// The ReviewController gives it the session's tasks after every change. When the same tasks come back in the
/// same order (a status or the time spent changed) the rows are updated in place, so the view keeps its current
/// row and nothing is chosen again; any other list resets the model.
class TaskQueueModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { TaskIdRole = Qt::UserRole + 1, StatusRole };

    explicit TaskQueueModel(QObject* parent = nullptr);

    void setTasks(std::vector<core::Task> tasks);
    /// A task folder opened outside a review: one row titled `title`.
    void setLooseTask(const QString& title);
    void clear();

    [[nodiscard]] const std::vector<core::Task>& tasks() const { return m_tasks; }
    /// The review task id of a row; none for a loose task or a row out of range.
    [[nodiscard]] std::optional<qint64> taskIdAt(int row) const;
    [[nodiscard]] int rowOfTask(qint64 taskId) const; ///< -1 when the queue has no such task

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;

    [[nodiscard]] static QString statusSymbol(core::TaskStatus status);
    [[nodiscard]] static QString duration(std::int64_t seconds); ///< "m:ss"

private:
    [[nodiscard]] bool sameTasks(const std::vector<core::Task>& tasks) const;

    std::vector<core::Task> m_tasks;
    QString m_looseTitle; ///< shown when m_tasks is empty and this is not
};

} // namespace kl::views

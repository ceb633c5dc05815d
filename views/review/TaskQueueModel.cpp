#include "review/TaskQueueModel.h"

#include "common/QtText.h"

#include <algorithm>

namespace kl::views {

TaskQueueModel::TaskQueueModel(QObject* parent) : QAbstractListModel(parent) {}

QString TaskQueueModel::statusSymbol(core::TaskStatus status) {
    switch (status) {
    case core::TaskStatus::Todo: return QStringLiteral("\u25CB");       // open circle
    case core::TaskStatus::InProgress: return QStringLiteral("\u25D0"); // half
    case core::TaskStatus::Done: return QStringLiteral("\u25CF");       // full
    }
    return {};
}

QString TaskQueueModel::duration(std::int64_t seconds) {
    return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

bool TaskQueueModel::sameTasks(const std::vector<core::Task>& tasks) const {
    return m_looseTitle.isEmpty() && !m_tasks.empty() &&
           std::ranges::equal(tasks, m_tasks, [](const core::Task& a, const core::Task& b) { return a.id == b.id; });
}

void TaskQueueModel::setTasks(std::vector<core::Task> tasks) {
    if (sameTasks(tasks)) {
        // Only what a row shows changed: update in place so the view's current row and selection stay.
        m_tasks = std::move(tasks);
        emit dataChanged(index(0), index(rowCount() - 1));
        return;
    }
    beginResetModel();
    m_tasks = std::move(tasks);
    m_looseTitle.clear();
    endResetModel();
}

void TaskQueueModel::setLooseTask(const QString& title) {
    beginResetModel();
    m_tasks.clear();
    m_looseTitle = title;
    endResetModel();
}

void TaskQueueModel::clear() {
    beginResetModel();
    m_tasks.clear();
    m_looseTitle.clear();
    endResetModel();
}

std::optional<qint64> TaskQueueModel::taskIdAt(int row) const {
    if (row < 0 || row >= static_cast<int>(m_tasks.size())) {
        return std::nullopt;
    }
    return m_tasks[static_cast<std::size_t>(row)].id;
}

int TaskQueueModel::rowOfTask(qint64 taskId) const {
    const auto it = std::ranges::find(m_tasks, taskId, &core::Task::id);
    return it == m_tasks.end() ? -1 : static_cast<int>(it - m_tasks.begin());
}

int TaskQueueModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    if (m_tasks.empty()) {
        return m_looseTitle.isEmpty() ? 0 : 1;
    }
    return static_cast<int>(m_tasks.size());
}

QVariant TaskQueueModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    if (m_tasks.empty()) {
        return role == Qt::DisplayRole ? QVariant(m_looseTitle) : QVariant();
    }
    const core::Task& task = m_tasks[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1  %2   %3")
            .arg(statusSymbol(task.status), toQString(task.title), duration(task.secondsSpent));
    case Qt::ToolTipRole:
        return tr("%1: %2, %3 spent")
            .arg(toQString(task.folder), toQString(core::toString(task.status)), duration(task.secondsSpent));
    case TaskIdRole: return QVariant::fromValue<qint64>(task.id);
    case StatusRole: return toQString(core::toString(task.status));
    default: return {};
    }
}

} // namespace kl::views

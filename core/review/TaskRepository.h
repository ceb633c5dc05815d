#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kl::core {

class Database;

/// The review's task queue. `addFromFolder` reads a task folder (docs/task-format.md) and copies
/// task.json and the files it names into the review, so the review stays self-contained when the
/// folder moves or changes. Each call is one transaction.
class TaskRepository {
public:
    explicit TaskRepository(Database& db) : m_db(db) {}

    /// Adds the task in `folderPath`; the folder's name becomes the task's unique `folder` key.
    [[nodiscard]] Expected<Task> addFromFolder(const std::string& folderPath);
    /// Adds a task with the given files (role "task_json", "nki", "cuda", "hardware").
    [[nodiscard]] Expected<Task> add(const std::string& folder, const std::string& title,
                                     const std::vector<TaskFile>& files);
    [[nodiscard]] Expected<Task> get(std::int64_t id);
    [[nodiscard]] Expected<std::vector<Task>> list();
    [[nodiscard]] Expected<void> setStatus(std::int64_t id, TaskStatus status);
    /// Adds to the time spent reviewing the task (the GUI calls it when the task loses focus).
    [[nodiscard]] Expected<void> addSecondsSpent(std::int64_t id, std::int64_t seconds);
    [[nodiscard]] Expected<std::vector<TaskFile>> files(std::int64_t id);
    [[nodiscard]] Expected<void> remove(std::int64_t id);

private:
    [[nodiscard]] Expected<void> expectOneChange(std::int64_t id);

    Database& m_db;
};

} // namespace kl::core

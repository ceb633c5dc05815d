#include "review/TaskRepository.h"

#include "db/Database.h"
#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "review/TextCheck.h"
#include "support/Try.h"
#include "task/TaskSpec.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kl::core {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kColumns = "id, folder, title, status, seconds_spent, position, added_at";

Task readTask(const Statement& row) {
    Task t;
    t.id = row.int64(0);
    t.folder = row.text(1);
    t.title = row.text(2);
    t.status = parseTaskStatus(row.text(3)).value_or(TaskStatus::Todo);
    t.secondsSpent = row.int64(4);
    t.position = static_cast<int>(row.int64(5));
    t.addedAt = row.text(6);
    return t;
}

Expected<std::string> readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot read file", path.string());
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

/// Adds the file `name` (task.json's `key`), if given; `required` makes its absence an error.
Expected<void> addNamedFile(const std::string& name, const fs::path& folder, const char* key, const char* role,
                            bool required, std::vector<TaskFile>& files) {
    if (name.empty()) {
        if (required) {
            return makeError(ErrorCode::Parse, fmt::format("task.json: missing field \"{}\" (a file name)", key),
                             (folder / "task.json").string());
        }
        return {};
    }
    auto content = readFile(folder / name);
    if (!content) {
        Error error = content.error();
        error.message = fmt::format("cannot read \"{}\" named by task.json \"{}\"", name, key);
        return std::unexpected(error);
    }
    files.push_back(TaskFile{name, role, std::move(*content)});
    return {};
}

/// The file of task.json's "reference" ("reference.py:func", the numerics reference: Python that runs in the
/// sandbox like the kernel, so it is stored and hashed with the task), when it names a file inside the folder that
/// is not stored already; "" otherwise.
std::string referenceFile(const std::string& taskJson, const fs::path& folder, const std::vector<TaskFile>& files) {
    const auto doc = nlohmann::json::parse(taskJson, nullptr, false);
    const auto it = doc.is_object() ? doc.find("reference") : doc.end();
    if (!doc.is_object() || it == doc.end() || !it->is_string()) {
        return {};
    }
    const std::string& ref = it->get_ref<const std::string&>();
    const fs::path file = fs::path(ref.substr(0, ref.rfind(':'))).lexically_normal();
    std::error_code ec;
    if (file.empty() || file.is_absolute() || *file.begin() == ".." || !fs::is_regular_file(folder / file, ec)) {
        return {};
    }
    const std::string name = file.generic_string();
    const bool stored = std::any_of(files.begin(), files.end(), [&](const TaskFile& f) { return f.path == name; });
    return stored ? std::string() : name;
}

} // namespace

Expected<Task> TaskRepository::addFromFolder(const std::string& folderPath) {
    const fs::path folder = fs::path(folderPath).lexically_normal();
    const fs::path jsonPath = folder / "task.json";
    auto text = readFile(jsonPath);
    if (!text) {
        return makeError(ErrorCode::NotFound, "no task.json in the task folder", jsonPath.string(), 0,
                         "a task folder holds task.json, the NKI kernel and the CUDA source (docs/task-format.md)");
    }
    // The same reading as loadTaskSpec's: every field's type and range is checked before anything is stored.
    auto task = parseTaskJson(*text, jsonPath.string());
    KL_TRY(task);
    std::vector<TaskFile> files{TaskFile{"task.json", "task_json", *text}};
    auto named = then(addNamedFile(task->kernelFile, folder, "kernel_file", "nki", true, files),
                      [&] { return addNamedFile(task->cudaFile, folder, "cuda_file", "cuda", false, files); });
    KL_TRY(named);
    // "hardware" is a profile name (trn1) unless it names a file in the folder.
    std::error_code ec;
    if (!task->hardware.empty() && fs::is_regular_file(folder / task->hardware, ec)) {
        KL_TRY(addNamedFile(task->hardware, folder, "hardware", "hardware", false, files));
    }
    KL_TRY(addNamedFile(referenceFile(*text, folder, files), folder, "reference", "reference", false, files));
    std::string folderName = folder.filename().string();
    if (folderName.empty() || folderName == ".") {
        folderName = fs::absolute(folder, ec).lexically_normal().filename().string();
    }
    return add(folderName, task->title.empty() ? folderName : task->title, files);
}

Expected<Task> TaskRepository::add(const std::string& folder, const std::string& title,
                                   const std::vector<TaskFile>& files) {
    auto valid =
        then(checkText(folder, "task folder name", false), [&] { return checkText(title, "task title", false); });
    KL_TRY(valid);
    auto tx = m_db.beginTransaction();
    KL_TRY(tx);
    auto existing = selectFirst(m_db, "SELECT id FROM task WHERE folder = ?1", intColumn, folder);
    KL_TRY(existing);
    if (*existing) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("the review already has a task from folder \"{}\" (id {})", folder, **existing),
                         m_db.path());
    }
    KL_TRY(execute(m_db,
                   "INSERT INTO task(folder, title, status, position, added_at, seconds_spent) "
                   "VALUES (?1, ?2, 'todo', (SELECT COALESCE(MAX(position), 0) + 1 FROM task), ?3, 0)",
                   folder, title, utcNow()));
    const std::int64_t id = m_db.lastInsertRowId();
    auto file = m_db.prepare("INSERT INTO task_file(task_id, path, role, content) VALUES (?1, ?2, ?3, ?4)");
    KL_TRY(file);
    for (const TaskFile& f : files) {
        const auto* bytes = reinterpret_cast<const std::byte*>(f.content.data());
        file->bind(1, id).bind(2, f.path).bind(3, f.role).bindBlob(4, {bytes, f.content.size()});
        KL_TRY(file->run());
        file->reset();
    }
    KL_TRY(tx->commit());
    return get(id);
}

Expected<Task> TaskRepository::get(std::int64_t id) {
    auto task = selectFirst(m_db, fmt::format("SELECT {} FROM task WHERE id = ?1", kColumns), readTask, id);
    KL_TRY(task);
    if (!*task) {
        return makeError(ErrorCode::NotFound, fmt::format("no task with id {} in this review", id), m_db.path());
    }
    return std::move(**task);
}

Expected<std::vector<Task>> TaskRepository::list() {
    return selectRows(m_db, fmt::format("SELECT {} FROM task ORDER BY position, id", kColumns), readTask);
}

Expected<void> TaskRepository::setStatus(std::int64_t id, TaskStatus status) {
    return then(execute(m_db, "UPDATE task SET status = ?2 WHERE id = ?1", id, toString(status)),
                [&] { return expectOneChange(id); });
}

Expected<void> TaskRepository::addSecondsSpent(std::int64_t id, std::int64_t seconds) {
    if (seconds < 0) {
        return makeError(ErrorCode::InvalidArgument, "time spent cannot decrease");
    }
    return then(execute(m_db, "UPDATE task SET seconds_spent = seconds_spent + ?2 WHERE id = ?1", id, seconds),
                [&] { return expectOneChange(id); });
}

Expected<std::vector<TaskFile>> TaskRepository::files(std::int64_t id) {
    return selectRows(
        m_db, "SELECT path, role, content FROM task_file WHERE task_id = ?1 ORDER BY path",
        [](const Statement& row) {
            auto bytes = row.blob(2);
            return TaskFile{row.text(0), row.text(1),
                            std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size())};
        },
        id);
}

Expected<void> TaskRepository::remove(std::int64_t id) {
    return then(execute(m_db, "DELETE FROM task WHERE id = ?1", id), [&] { return expectOneChange(id); });
}

Expected<void> TaskRepository::expectOneChange(std::int64_t id) {
    return m_db.expectChange(fmt::format("no task with id {} in this review", id));
}

} // namespace kl::core

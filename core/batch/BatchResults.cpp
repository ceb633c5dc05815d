#include "batch/BatchResults.h"

#include "db/Query.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace kl::core::batch {
namespace {

constexpr std::int64_t kApplicationId = 0x4B4C4252; // "KLBR"

constexpr std::string_view kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS step_result (
  task         TEXT NOT NULL,
  step         TEXT NOT NULL CHECK (step IN ('trace', 'simulate', 'findings', 'numerics')),
  content_hash TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'timeout', 'skipped')),
  error        TEXT NOT NULL DEFAULT '',
  error_file   TEXT NOT NULL DEFAULT '',
  error_line   INTEGER NOT NULL DEFAULT 0,
  figures_json TEXT NOT NULL DEFAULT '{}',
  duration_ms  INTEGER NOT NULL,
  finished_at  TEXT NOT NULL,
  PRIMARY KEY (task, step)
);
)sql";

constexpr std::string_view kColumns =
    "task, step, content_hash, status, error, error_file, error_line, figures_json, duration_ms, finished_at";

StepResult readRow(const Statement& r) {
    return {r.text(0), r.text(1),  r.text(2), r.text(3), r.text(4), r.text(5), static_cast<int>(r.int64(6)),
            r.text(7), r.int64(8), r.text(9)};
}

Expected<void> insertRow(Database& db, const StepResult& s) {
    return execute(
        db,
        fmt::format("INSERT OR REPLACE INTO step_result({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    kColumns),
        s.task, s.step, s.contentHash, s.status, s.error, s.errorFile, s.errorLine, s.figuresJson, s.durationMs,
        s.finishedAt.empty() ? utcNow() : s.finishedAt);
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) {
        return s;
    }
    std::string out = "\"";
    for (char c : s) {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

} // namespace

BatchResults::BatchResults(BatchResults&&) noexcept = default;
BatchResults& BatchResults::operator=(BatchResults&&) noexcept = default;
BatchResults::~BatchResults() = default;

Expected<BatchResults> BatchResults::open(const std::string& path) {
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) > 0;
    auto db = Database::open(path, Database::OpenMode::Create);
    KL_TRY(db);
    if (existed) {
        auto id = db->queryInt("PRAGMA application_id");
        if (!id || *id != kApplicationId) {
            return makeError(ErrorCode::Parse, "not a KernelLens batch results file", path, 0,
                             "give --out a new file name or a results file of an earlier batch");
        }
    }
    // The id and the tables in one transaction: several workers (or a reader) may create the same results file at
    // once, and none may see a non-empty file without its id and take it for someone else's file.
    // An existing file only gets what is missing (IF NOT EXISTS), so a read-only results file still opens.
    auto ready =
        existed
            ? db->exec(kSchema)
            : db->exec(fmt::format("BEGIN IMMEDIATE; PRAGMA application_id = {}; {} COMMIT;", kApplicationId, kSchema));
    if (ready) {
        ready = db->exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
    }
    KL_TRY(ready);
    BatchResults r;
    r.m_db = std::make_unique<Database>(std::move(*db));
    r.m_path = path;
    return r;
}

Expected<std::string> BatchResults::root() {
    auto root = selectFirst(*m_db, "SELECT value FROM meta WHERE key = 'root'", textColumn);
    KL_TRY(root);
    return root->value_or(std::string());
}

Expected<void> BatchResults::setRoot(const std::string& root) {
    return execute(*m_db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('root', ?1)", root);
}

Expected<std::map<std::string, std::string>> BatchResults::finishedTasks(const std::vector<std::string>& steps) {
    auto rows = all();
    KL_TRY(rows);
    std::map<std::string, std::map<std::string, std::string>> byTask; // task -> step -> hash
    for (const StepResult& r : *rows) {
        byTask[r.task][r.step] = r.contentHash;
    }
    std::map<std::string, std::string> out;
    for (const auto& [task, done] : byTask) {
        bool complete = true;
        for (const std::string& s : steps) {
            auto it = done.find(s);
            complete = complete && it != done.end() && it->second == done.begin()->second;
        }
        if (complete) {
            out[task] = done.begin()->second;
        }
    }
    return out;
}

Expected<void> BatchResults::recordTask(const std::string& task, const std::vector<StepResult>& rows) {
    return inTransaction(*m_db, [&]() -> Expected<void> {
        KL_TRY(execute(*m_db, "DELETE FROM step_result WHERE task = ?1", task));
        for (const StepResult& r : rows) {
            KL_TRY(insertRow(*m_db, r));
        }
        return {};
    });
}

Expected<std::vector<StepResult>> BatchResults::all() {
    return selectRows(*m_db,
                      fmt::format("SELECT {} FROM step_result ORDER BY task, CASE step WHEN 'trace' THEN 0 "
                                  "WHEN 'simulate' THEN 1 WHEN 'findings' THEN 2 ELSE 3 END",
                                  kColumns),
                      readRow);
}

Expected<std::size_t> mergeResults(const std::vector<std::string>& inputs, const std::string& output) {
    std::error_code ec;
    if (std::filesystem::exists(output, ec)) {
        return makeError(ErrorCode::InvalidArgument, "file already exists; a merge never writes over a file", output);
    }
    std::map<std::string, std::vector<StepResult>> byTask;
    std::string root;
    for (const std::string& in : inputs) {
        if (!std::filesystem::exists(in, ec)) {
            return makeError(ErrorCode::NotFound, "no such results file", in);
        }
        auto file = BatchResults::open(in);
        KL_TRY(file);
        auto rows = file->all();
        KL_TRY(rows);
        auto inRoot = file->root();
        KL_TRY(inRoot);
        root = root.empty() ? *inRoot : root;
        std::map<std::string, std::vector<StepResult>> mine;
        for (StepResult& r : *rows) {
            mine[r.task].push_back(std::move(r));
        }
        for (auto& [task, taskRows] : mine) {
            auto& kept = byTask[task];
            if (kept.empty() || kept.front().finishedAt < taskRows.front().finishedAt) {
                kept = std::move(taskRows); // the later run of a task is its current result
            }
        }
    }
    auto out = BatchResults::open(output);
    KL_TRY(out);
    KL_TRY(out->setRoot(root));
    for (const auto& [task, rows] : byTask) {
        KL_TRY(out->recordTask(task, rows));
    }
    return byTask.size();
}

std::string resultsCsv(const std::vector<StepResult>& rows) {
    std::string out =
        "task,step,content_hash,status,error,error_file,error_line,figures_json,duration_ms,finished_at\n";
    for (const StepResult& r : rows) {
        out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csvField(r.task), r.step, r.contentHash, r.status,
                           csvField(r.error), csvField(r.errorFile), r.errorLine, csvField(r.figuresJson), r.durationMs,
                           r.finishedAt);
    }
    return out;
}

std::string resultsJsonLines(const std::vector<StepResult>& rows) {
    std::string out;
    for (const StepResult& r : rows) {
        nlohmann::json j{{"task", r.task},
                         {"step", r.step},
                         {"content_hash", r.contentHash},
                         {"status", r.status},
                         {"error", r.error},
                         {"error_file", r.errorFile},
                         {"error_line", r.errorLine},
                         {"duration_ms", r.durationMs},
                         {"finished_at", r.finishedAt}};
        j["figures"] = nlohmann::json::parse(r.figuresJson, nullptr, false);
        out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    return out;
}

} // namespace kl::core::batch

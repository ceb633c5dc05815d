#include "review/ReviewSchema.h"

#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

namespace {

// The schema up to version 2; a new file also gets version 3's and 4's tables, from the SQL texts the migration
// steps use (kMigrateTo3Sql, kMigrateTo4Sql), so the two can never differ. Annotation and reply ids use AUTOINCREMENT
// so an id is never reused: undo/redo puts a deleted annotation back under its old id, which must still be free.
constexpr std::string_view kCreateSql = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE reviewer (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE,
  added_at TEXT NOT NULL
);
CREATE TABLE rubric (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  source_name TEXT NOT NULL,
  json        TEXT NOT NULL
);
CREATE TABLE task (
  id            INTEGER PRIMARY KEY,
  folder        TEXT NOT NULL UNIQUE,
  title         TEXT NOT NULL,
  status        TEXT NOT NULL DEFAULT 'todo' CHECK (status IN ('todo', 'in_progress', 'done')),
  position      INTEGER NOT NULL,
  added_at      TEXT NOT NULL,
  seconds_spent INTEGER NOT NULL DEFAULT 0 CHECK (seconds_spent >= 0)
);
CREATE TABLE task_file (
  task_id INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  path    TEXT NOT NULL,
  role    TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (task_id, path)
);
CREATE TABLE run (
  id           INTEGER PRIMARY KEY,
  task_id      INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  label        TEXT NOT NULL DEFAULT '',
  profile_json TEXT NOT NULL,
  summary_json TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX run_task ON run(task_id);
CREATE TABLE score (
  task_id    INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  item_id    TEXT NOT NULL,
  value      INTEGER NOT NULL,
  reviewer   TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (task_id, item_id)
);
CREATE TABLE annotation (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id        INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  anchor_kind    TEXT NOT NULL CHECK (anchor_kind IN ('time', 'instruction', 'nki_lines', 'cuda_lines')),
  t0_ns          INTEGER,
  t1_ns          INTEGER,
  instruction_id INTEGER,
  first_line     INTEGER,
  last_line      INTEGER,
  item_id        TEXT,
  severity       TEXT NOT NULL CHECK (severity IN ('blocking', 'major', 'minor', 'nit', 'praise')),
  score          INTEGER,
  text           TEXT NOT NULL,
  author         TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  resolved       INTEGER NOT NULL DEFAULT 0 CHECK (resolved IN (0, 1)),
  CHECK (anchor_kind <> 'time' OR (t0_ns IS NOT NULL AND t1_ns IS NOT NULL AND t0_ns <= t1_ns)),
  CHECK (anchor_kind <> 'instruction' OR instruction_id IS NOT NULL),
  CHECK (anchor_kind NOT IN ('nki_lines', 'cuda_lines')
         OR (first_line >= 1 AND last_line >= first_line))
);
CREATE INDEX annotation_task ON annotation(task_id);
CREATE TABLE reply (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  annotation_id INTEGER NOT NULL REFERENCES annotation(id) ON DELETE CASCADE,
  author        TEXT NOT NULL,
  text          TEXT NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE INDEX reply_annotation ON reply(annotation_id);
CREATE TABLE link (
  id         INTEGER PRIMARY KEY,
  task_id    INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  cuda_first INTEGER NOT NULL CHECK (cuda_first >= 1),
  cuda_last  INTEGER NOT NULL CHECK (cuda_last >= cuda_first),
  nki_first  INTEGER NOT NULL CHECK (nki_first >= 1),
  nki_last   INTEGER NOT NULL CHECK (nki_last >= nki_first),
  origin     TEXT NOT NULL CHECK (origin IN ('comment', 'reviewer', 'suggestion')),
  state      TEXT NOT NULL CHECK (state IN ('proposed', 'accepted', 'rejected')),
  created_at TEXT NOT NULL
);
CREATE INDEX link_task ON link(task_id);
)sql";

// Version 1 -> 2: annotation replies and time tracking per task.
constexpr std::string_view kMigrateTo2Sql = R"sql(
ALTER TABLE task ADD COLUMN seconds_spent INTEGER NOT NULL DEFAULT 0 CHECK (seconds_spent >= 0);
CREATE TABLE reply (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  annotation_id INTEGER NOT NULL REFERENCES annotation(id) ON DELETE CASCADE,
  author        TEXT NOT NULL,
  text          TEXT NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE INDEX reply_annotation ON reply(annotation_id);
)sql";

// Version 2 -> 3: several reviewers in one file, and findings the reviewer dismissed. A merged review keeps each
// reviewer's own scores (reviewer_score) apart from the agreed grade (score) and says why a disputed grade was set
// (adjudication). Dismissals use AUTOINCREMENT for the same reason as annotations: undoing a Restore puts the
// dismissal back under its old id.
constexpr std::string_view kMigrateTo3Sql = R"sql(
CREATE TABLE reviewer_score (
  task_id    INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  item_id    TEXT NOT NULL,
  reviewer   TEXT NOT NULL,
  value      INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (task_id, item_id, reviewer)
);
CREATE TABLE adjudication (
  task_id     INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  item_id     TEXT NOT NULL,
  reason      TEXT NOT NULL,
  adjudicator TEXT NOT NULL,
  decided_at  TEXT NOT NULL,
  PRIMARY KEY (task_id, item_id)
);
CREATE TABLE finding_dismissal (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id     INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  finding_key TEXT NOT NULL,
  rule        TEXT NOT NULL,
  title       TEXT NOT NULL,
  reason      TEXT NOT NULL,
  author      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (task_id, finding_key)
);
)sql";

// Version 3 -> 4: numerics runs (issue 15). One row per run of the kernel on values: what it was run with (inputs,
// seed, reference, CUDA policy, tolerance standard), whether every comparison passed, and the front end's whole
// numerics document as JSON text (docs/numerics-json.md), capped so that one run cannot swell the file.
constexpr std::string_view kMigrateTo4Sql = R"sql(
CREATE TABLE numerics_run (
  id            INTEGER PRIMARY KEY,
  task_id       INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
  created_at    TEXT NOT NULL,
  kernel        TEXT NOT NULL,
  inputs_kind   TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  reference     TEXT NOT NULL,
  cuda_numerics TEXT NOT NULL,
  tolerance     TEXT NOT NULL,
  passed        INTEGER NOT NULL CHECK (passed IN (0, 1)),
  document      TEXT NOT NULL CHECK (length(CAST(document AS BLOB)) <= 8388608)
);
CREATE INDEX numerics_run_task ON numerics_run(task_id);
)sql";

struct MigrationStep {
    int toVersion;
    std::string_view sql;
};

constexpr MigrationStep kSteps[] = {{2, kMigrateTo2Sql}, {3, kMigrateTo3Sql}, {4, kMigrateTo4Sql}};

} // namespace

Expected<void> ReviewSchema::createCurrent(Database& db) {
    KL_TRY(db.exec(kCreateSql));
    KL_TRY(db.exec(kMigrateTo3Sql));
    KL_TRY(db.exec(kMigrateTo4Sql));
    KL_TRY(execute(db, "INSERT INTO meta(key, value) VALUES (?1, ?2)", "magic", kMagic));
    KL_TRY(db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId)));
    return setVersion(db, kCurrentVersion);
}

Expected<void> ReviewSchema::migrate(Database& db, int fromVersion) {
    for (const MigrationStep& step : kSteps) {
        if (step.toVersion <= fromVersion) {
            continue;
        }
        auto tx = db.beginTransaction();
        KL_TRY(tx);
        KL_TRY(withContext(then(db.exec(step.sql), [&] { return setVersion(db, step.toVersion); }),
                           fmt::format("migrating review file to schema version {}", step.toVersion)));
        KL_TRY(tx->commit());
    }
    return {};
}

Expected<void> ReviewSchema::setVersion(Database& db, int version) {
    // user_version is what we read first on open; meta.schema_version is for people using the shell.
    KL_TRY(db.exec(fmt::format("PRAGMA user_version = {}", version)));
    return execute(db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?1)",
                   std::to_string(version));
}

} // namespace kl::core

-- Builds tests/core/data/review-v1.klreview, a review file as KernelLens schema version 1 wrote it.
-- The migration test opens a copy and checks that version 2 (replies, task time tracking) is added
-- without losing anything. Regenerate with:
--   rm -f review-v1.klreview && sqlite3 review-v1.klreview < review-v1.sql
-- Version 1 is frozen: never edit the schema part of this script.
PRAGMA application_id = 1263293014; -- 0x4B4C5256 "KLRV"
PRAGMA user_version = 1;
BEGIN;
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
  added_at      TEXT NOT NULL
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

-- Content.
INSERT INTO meta(key, value) VALUES ('magic', 'KernelLens review'), ('schema_version', '1'),
  ('created_at', '2026-01-15T09:00:00.000Z'), ('created_by', 'KernelLens 0.0.9');
INSERT INTO rubric(id, source_name, json) VALUES (1, 'mini-v1.json', '{"format": 1, "id": "mini-v1", "title": "Small rubric stored in the version-1 test file", "version": "0.9", "areas": [{"id": "fidelity", "title": "Migration fidelity", "items": [{"id": "fidelity.semantics", "title": "Same computation", "guidance": "Outputs match the CUDA kernel.", "scale": {"kind": "pass_fail", "pass": "matches", "fail": "differs"}}]}, {"id": "performance", "title": "Performance", "items": [{"id": "perf.overlap", "title": "Overlap", "guidance": "DMA overlaps compute.", "scale": {"kind": "levels", "levels": ["serial", "little", "partial", "good", "ideal"]}}]}]}');
INSERT INTO reviewer(name, added_at) VALUES ('alice', '2026-01-15T09:00:00.000Z'), ('bob', '2026-01-15T09:05:00.000Z');
INSERT INTO task(id, folder, title, status, position, added_at) VALUES
  (1, 'matmul_tiled', 'Tiled matmul', 'in_progress', 1, '2026-01-15T09:01:00.000Z'),
  (2, 'softmax', 'Row softmax', 'todo', 2, '2026-01-15T09:02:00.000Z');
INSERT INTO task_file(task_id, path, role, content) VALUES
  (1, 'task.json', 'task_json', CAST('{"format": 1, "title": "Tiled matmul", "kernel_file": "kernel.py", "kernel": "k", "args": []}' AS BLOB)),
  (1, 'kernel.py', 'nki', CAST('def k():' || char(10) || '    pass' || char(10) AS BLOB)),
  (1, 'kernel.cu', 'cuda', CAST('__global__ void k() {}' || char(10) AS BLOB));
INSERT INTO run(task_id, label, profile_json, summary_json, created_at) VALUES
  (1, 'baseline', '{"name": "trn1"}', '{"total_ns": 123456}', '2026-01-15T09:03:00.000Z');
INSERT INTO score(task_id, item_id, value, reviewer, updated_at) VALUES
  (1, 'fidelity.semantics', 1, 'alice', '2026-01-15T09:10:00.000Z'),
  (1, 'perf.overlap', 4, 'bob', '2026-01-15T09:11:00.000Z');
INSERT INTO annotation(id, task_id, anchor_kind, t0_ns, t1_ns, instruction_id, first_line, last_line, item_id,
                       severity, score, text, author, created_at, updated_at, resolved) VALUES
  (1, 1, 'time', 1000, 5000, NULL, NULL, NULL, 'perf.overlap', 'major', 2, 'DMA exposed here', 'alice',
   '2026-01-15T09:12:00.000Z', '2026-01-15T09:12:00.000Z', 0),
  (2, 1, 'instruction', NULL, NULL, 42, NULL, NULL, NULL, 'nit', NULL, 'odd name', 'bob',
   '2026-01-15T09:13:00.000Z', '2026-01-15T09:13:00.000Z', 1),
  (3, 1, 'nki_lines', NULL, NULL, NULL, 3, 7, 'fidelity.semantics', 'praise', NULL, 'clean loop', 'alice',
   '2026-01-15T09:14:00.000Z', '2026-01-15T09:14:00.000Z', 0),
  (4, 2, 'cuda_lines', NULL, NULL, NULL, 10, 12, NULL, 'blocking', NULL, 'max not subtracted', 'alice',
   '2026-01-15T09:15:00.000Z', '2026-01-15T09:15:00.000Z', 0);
INSERT INTO link(task_id, cuda_first, cuda_last, nki_first, nki_last, origin, state, created_at) VALUES
  (1, 1, 1, 1, 2, 'comment', 'accepted', '2026-01-15T09:16:00.000Z');
COMMIT;

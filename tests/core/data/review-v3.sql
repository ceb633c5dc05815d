-- Builds tests/core/data/review-v3.klreview, a review file as KernelLens schema version 3 wrote it: the
-- version-2 file with version 3's additions (reviewer_score, adjudication, finding_dismissal) and one row in
-- each. The migration test opens a copy and checks that version 4 (numerics_run) is added without losing
-- anything. Regenerate with:
--   rm -f review-v3.klreview && sqlite3 review-v3.klreview < review-v3.sql
-- Version 3 is frozen: never edit the schema part of this script.
.read review-v2.sql
BEGIN;
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
INSERT INTO finding_dismissal(task_id, finding_key, rule, title, reason, author, created_at)
VALUES (1, 'redundant-loads', 'redundant-loads', 'Loads repeated in the K loop', 'the tile is tiny', 'bob',
        '2026-03-01T08:00:00.000Z');
UPDATE meta SET value = '3' WHERE key = 'schema_version';
COMMIT;
PRAGMA user_version = 3;

-- Builds tests/core/data/review-v2.klreview, a review file as KernelLens schema version 2 wrote it: the
-- version-1 file with version 2's additions (annotation replies, task time tracking) and one reply. The
-- migration test opens a copy and checks that version 3 (finding_dismissal) is added without losing
-- anything. Regenerate with:
--   rm -f review-v2.klreview && sqlite3 review-v2.klreview < review-v2.sql
-- Version 2 is frozen: never edit the schema part of this script.
.read review-v1.sql
BEGIN;
ALTER TABLE task ADD COLUMN seconds_spent INTEGER NOT NULL DEFAULT 0 CHECK (seconds_spent >= 0);
CREATE TABLE reply (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  annotation_id INTEGER NOT NULL REFERENCES annotation(id) ON DELETE CASCADE,
  author        TEXT NOT NULL,
  text          TEXT NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE INDEX reply_annotation ON reply(annotation_id);
UPDATE task SET seconds_spent = 90 WHERE id = 1;
INSERT INTO reply(annotation_id, author, text, created_at)
VALUES (1, 'bob', 'agreed, hoist the load', '2026-02-01T10:00:00.000Z');
UPDATE meta SET value = '2' WHERE key = 'schema_version';
COMMIT;
PRAGMA user_version = 2;

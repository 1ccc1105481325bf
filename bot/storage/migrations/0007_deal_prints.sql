-- The fingerprint each deal showed when it started: the first 16 hex digits of the SHA-256 of
-- "kortbord:<table id>:<deal>:<seed>" (bot/verify.py). Kept apart from the seed, so that a seed
-- changed afterwards no longer matches what the players were shown (`kortbord verify`).
CREATE TABLE deal_prints (
    table_id    INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    deal        INTEGER NOT NULL CHECK (deal >= 1),
    fingerprint TEXT NOT NULL,
    shown_at    REAL NOT NULL,
    PRIMARY KEY (table_id, deal)
) WITHOUT ROWID;

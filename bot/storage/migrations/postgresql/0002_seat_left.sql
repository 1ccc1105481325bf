-- A member who left a match in play: a computer player keeps the seat, and the member is placed
-- last (rules/party.md 0.4).
ALTER TABLE seats ADD COLUMN left_table INTEGER NOT NULL DEFAULT 0 CHECK (left_table IN (0, 1));

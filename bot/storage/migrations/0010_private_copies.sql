-- The rows of a member's private view keep the storage's own words, not a face's: a member no
-- face could reach privately (was dm_closed), and the message carrying a member's private view of
-- a table (was dm_messages), which a face keeps wherever it posts a hand privately.
ALTER TABLE dm_closed RENAME TO unreachable_members;
ALTER TABLE dm_messages RENAME TO private_copies;

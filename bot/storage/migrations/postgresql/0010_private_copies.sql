-- The rows of a member's private view in the storage's own words (see ../0010_private_copies.sql).
ALTER TABLE dm_closed RENAME TO unreachable_members;
ALTER TABLE dm_messages RENAME TO private_copies;

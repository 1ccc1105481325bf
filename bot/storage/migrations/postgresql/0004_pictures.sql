-- Card pictures can be turned off: by a server for its tables, and by a member for the picture
-- of their own hand.
ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1));

CREATE TABLE hand_pictures_off (
    user_id BIGINT PRIMARY KEY
);

-- Dagens giv: one deal a day per game for a whole server (see ../0008_daily.sql).
CREATE TABLE daily_settings (
    guild_id   BIGINT PRIMARY KEY,
    games      TEXT NOT NULL DEFAULT '[]',
    channel_id BIGINT,
    time_zone  TEXT NOT NULL DEFAULT 'Europe/Stockholm',
    posted_day TEXT
);

CREATE TABLE daily_deals (
    guild_id BIGINT NOT NULL,
    day      TEXT NOT NULL,
    game_id  TEXT NOT NULL,
    seed     BIGINT NOT NULL,
    PRIMARY KEY (guild_id, day, game_id)
);

CREATE TABLE daily_plays (
    guild_id   BIGINT NOT NULL,
    day        TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    name       TEXT NOT NULL,
    table_id   BIGINT,
    started_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day, game_id, user_id)
);

CREATE INDEX daily_plays_member ON daily_plays (guild_id, user_id, day);

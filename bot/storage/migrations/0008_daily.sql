-- Dagens giv: one deal a day per game for a whole server (bot/daily.py).
-- A server's choices for it: the games (JSON array of game ids; empty: every game that has a
-- deal of the day), the channel where each day's board is posted (NULL: none), its time zone,
-- and the last day whose board was posted there (YYYY-MM-DD).
CREATE TABLE daily_settings (
    guild_id   INTEGER PRIMARY KEY,
    games      TEXT NOT NULL DEFAULT '[]',
    channel_id INTEGER,
    time_zone  TEXT NOT NULL DEFAULT 'Europe/Stockholm',
    posted_day TEXT
);

-- The seed of each game's deal of the day on a server: the same cards for every member.
CREATE TABLE daily_deals (
    guild_id INTEGER NOT NULL,
    day      TEXT NOT NULL,                          -- YYYY-MM-DD in the server's time zone
    game_id  TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day, game_id)
) WITHOUT ROWID;

-- Who played which deal of the day, at which table: one row per member, day and game, so a
-- member plays each deal once. The result is the table's own (results).
CREATE TABLE daily_plays (
    guild_id   INTEGER NOT NULL,
    day        TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT NOT NULL,
    table_id   INTEGER,                              -- NULL while the table is being opened
    started_at REAL NOT NULL,
    PRIMARY KEY (guild_id, day, game_id, user_id)
) WITHOUT ROWID;

CREATE INDEX daily_plays_member ON daily_plays (guild_id, user_id, day);

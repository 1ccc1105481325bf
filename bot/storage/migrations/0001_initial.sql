-- 0001: server settings, tables with seats and their append-only action logs, results,
-- leaderboards (OpenSkill ratings and placings), and what the bot knows about members' DMs.
-- Ids from Discord are snowflakes (INTEGER); times are Unix seconds (REAL).

CREATE TABLE guild_settings (
    guild_id         INTEGER PRIMARY KEY,
    language         TEXT CHECK (language IN ('sv', 'en')),       -- NULL: the bot's default
    thread_per_table INTEGER NOT NULL DEFAULT 0 CHECK (thread_per_table IN (0, 1)),
    turn_seconds     INTEGER,                                     -- NULL: the bot's default
    reaction_seconds INTEGER,                                     -- NULL: the bot's default
    table_channels   TEXT NOT NULL DEFAULT '[]'                   -- JSON array; empty: any
);

CREATE TABLE tables (
    table_id     INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, even after a delete
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    thread_id    INTEGER,
    message_id   INTEGER,
    host_id      INTEGER NOT NULL,
    game_id      TEXT NOT NULL,
    options      TEXT NOT NULL DEFAULT '[]',         -- JSON array of [name, text] pairs
    variant      TEXT NOT NULL,
    seed         INTEGER NOT NULL,
    status       TEXT NOT NULL
                 CHECK (status IN ('lobby', 'playing', 'paused', 'finished', 'ended')),
    turn_seconds INTEGER NOT NULL,
    language     TEXT NOT NULL,
    version      INTEGER NOT NULL,
    created_at   REAL NOT NULL,
    updated_at   REAL NOT NULL,
    deadline_at  REAL,
    end_reason   TEXT
);

-- Restart loads the live tables only.
CREATE INDEX tables_live ON tables (status) WHERE status NOT IN ('finished', 'ended');

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  INTEGER,                                -- NULL: a computer player
    name     TEXT NOT NULL,
    ai       TEXT NOT NULL,
    autoplay INTEGER NOT NULL CHECK (autoplay IN (0, 1)),
    strikes  INTEGER NOT NULL CHECK (strikes >= 0),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    notation TEXT NOT NULL,
    at       REAL NOT NULL,
    by       TEXT NOT NULL CHECK (by IN ('member', 'computer', 'timeout')),
    PRIMARY KEY (table_id, seq)                      -- a duplicate seq is refused
) WITHOUT ROWID;

CREATE TABLE results (
    table_id INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,                                -- NULL: a computer player
    score    INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL;

-- One line per member, server and game; only rated tables (two or more members) count.
CREATE TABLE standings (
    guild_id INTEGER NOT NULL,
    game_id  TEXT NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT NOT NULL,                          -- the name at the member's latest table
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL,
    PRIMARY KEY (guild_id, game_id, user_id)
) WITHOUT ROWID;

CREATE INDEX standings_user ON standings (guild_id, user_id);

-- How often a member finished in each place, per server and game.
CREATE TABLE placings (
    guild_id INTEGER NOT NULL,
    game_id  TEXT NOT NULL,
    user_id  INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    count    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game_id, user_id, place),
    FOREIGN KEY (guild_id, game_id, user_id)
        REFERENCES standings (guild_id, game_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Members whose DMs are closed (Discord error 50007): told once to use "my hand".
CREATE TABLE dm_closed (
    user_id INTEGER PRIMARY KEY
);

-- The DM that carries a member's hand at a table, edited as the hand changes.
CREATE TABLE dm_messages (
    table_id   INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

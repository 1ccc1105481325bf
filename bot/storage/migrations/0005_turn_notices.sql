-- A member can turn off being told that it is their turn (a DM line, or a mention).
CREATE TABLE turn_notices_off (
    user_id INTEGER PRIMARY KEY
);

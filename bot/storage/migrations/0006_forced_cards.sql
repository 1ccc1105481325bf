-- A member can turn off having their only legal card played for them at once.
CREATE TABLE forced_cards_off (
    user_id INTEGER PRIMARY KEY
);

-- The fingerprint each deal showed when it started (see ../0007_deal_prints.sql).
CREATE TABLE deal_prints (
    table_id    BIGINT NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    deal        INTEGER NOT NULL CHECK (deal >= 1),
    fingerprint TEXT NOT NULL,
    shown_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, deal)
);

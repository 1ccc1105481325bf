-- Which bot process serves each gateway shard; see ../0003_shard_leases.sql.
CREATE TABLE shard_leases (
    shard_id    INTEGER PRIMARY KEY CHECK (shard_id >= 0),
    shard_count INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner       TEXT NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL
);

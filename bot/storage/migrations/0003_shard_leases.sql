-- Which bot process serves each gateway shard (running as several processes). A process claims
-- its shards at start, renews the lease while it runs and gives it up when it stops; a lease
-- that has run out may be taken over. A process changes a table only while it holds the lease
-- of the table's shard, (guild_id >> 22) % shard_count. Times are Unix seconds.
CREATE TABLE shard_leases (
    shard_id    INTEGER PRIMARY KEY CHECK (shard_id >= 0),
    shard_count INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner       TEXT NOT NULL,
    expires_at  REAL NOT NULL
);

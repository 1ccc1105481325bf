-- Where each process's web table can be reached by the other processes (its internal address,
-- e.g. http://shards-0-1:8080), announced in the lease rows of its shards: a page that reaches
-- any process is served by the one that holds its table's shard. NULL: not announced (yet).
ALTER TABLE shard_leases ADD COLUMN web_address TEXT;

-- Where each process's web table can be reached by the others; see ../0011_web_addresses.sql.
ALTER TABLE shard_leases ADD COLUMN web_address TEXT;

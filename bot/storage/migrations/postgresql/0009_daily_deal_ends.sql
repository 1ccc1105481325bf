-- Dagens giv: when each deal of the day ends (see ../0009_daily_deal_ends.sql).
ALTER TABLE daily_deals ADD COLUMN ends_at DOUBLE PRECISION;

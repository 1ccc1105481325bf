-- Dagens giv: when each deal of the day ends (Unix time), fixed when the deal is first dealt, so
-- that no later change of the server's time zone opens a deal again whose day is over (and whose
-- seed is told). NULL for deals dealt before: they count as over at the earliest midnight any
-- time zone has for their day.
ALTER TABLE daily_deals ADD COLUMN ends_at REAL;

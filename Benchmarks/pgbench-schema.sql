-- Table of the PostgreSQL reference in Benchmarks/writes.py (the upsert is Benchmarks/pgbench-upsert.sql): one row
-- per (client, user) holding the revision and the tab order, like tabconfig's customizations.
CREATE TABLE customizations (
  client text NOT NULL,
  user_id text NOT NULL,
  revision bigint NOT NULL,
  tab_order jsonb NOT NULL,
  PRIMARY KEY (client, user_id)
);

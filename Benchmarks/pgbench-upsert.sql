-- pgbench script of the durable-write reference in Benchmarks/writes.py: the PostgreSQL equivalent of one
-- PUT /v1/clients/ios-phone/users/u<N>/tab-order, an upsert that bumps the revision. With 64 clients, client c
-- writes only users c, c+64, c+128, ... (100,032 users in all, like the 100,000 the wrk script walks), so clients
-- never wait on each other's rows; each user always gets the same one of the wrk script's four bodies.
--   pgbench -n -c 64 -j 2 -T 10 -M prepared -f Benchmarks/pgbench-upsert.sql
-- Table: Benchmarks/pgbench-schema.sql.
\set uid :client_id + 64 * random(0, 1562)
INSERT INTO customizations (client, user_id, revision, tab_order)
VALUES (
  'ios-phone',
  'u' || CAST(:uid AS text),
  1,
  CAST((ARRAY[
    '{"order":["home","search","favorites","library","downloads","profile","settings"],"hidden":[]}',
    '{"order":["home","profile","favorites","search"],"hidden":["settings"]}',
    '{"order":["home","library","search","downloads","profile"],"hidden":["settings"]}',
    '{"order":["home","favorites","profile","search","library","settings"],"hidden":["downloads"]}'
  ])[:uid % 4 + 1] AS jsonb)
)
ON CONFLICT (client, user_id) DO UPDATE
SET revision = customizations.revision + 1, tab_order = excluded.tab_order;

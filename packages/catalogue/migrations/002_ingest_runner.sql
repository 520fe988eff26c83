-- Which process ran (or runs) an ingestion: "<host>/<pid>". With several replicas it tells an operator, and a test,
-- which one holds a source's round; a 'running' run whose lock is free again was left by a process that died.
ALTER TABLE ingest_runs ADD COLUMN runner text;
-- Whether the run may have changed what searches see (rows written, a failure part-way, a finish covering earlier
-- runs): the catalogue's version counts only these, so a live round that found nothing new does not make every
-- replica drop its answers and read its snapshot again.
ALTER TABLE ingest_runs ADD COLUMN changed_catalogue boolean NOT NULL DEFAULT false;
UPDATE ingest_runs SET changed_catalogue = true;

-- The service processes running on this database, each with a heartbeat: lets an instance find out, at start, that
-- another instance of its service runs without the shared store it needs (see src/instances.ts).
CREATE TABLE service_instances (
  id uuid PRIMARY KEY,
  service text NOT NULL,
  -- Where the instance keeps its counters, caches and pub/sub: "redis <key prefix>", or "memory" (its own process).
  store text NOT NULL,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  heartbeat_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX service_instances_service ON service_instances (service, heartbeat_at);

-- The version of `companies`, which the search held in memory (src/store/company-snapshot.ts) reads before every
-- search to know whether its copy is current. Every statement that changes `companies` raises it, in its own
-- transaction: a reader sees the new version exactly when it can see the new rows, whatever wrote them (an
-- ingestion's profile rebuild in this process or in another, or a hand-made fix). A rebuild that changes nothing
-- writes nothing and leaves it alone.
CREATE TABLE companies_version (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version bigint NOT NULL
);
INSERT INTO companies_version (version) VALUES (0);

CREATE FUNCTION companies_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE companies_version SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER companies_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
FOR EACH STATEMENT EXECUTE FUNCTION companies_changed();

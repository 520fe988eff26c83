-- A hard monthly limit (BASIC) is counted here, in the usage row itself, when a request is admitted: the limit then
-- holds whatever Redis loses, and the count and the usage are one row (a refund takes one from both at once).
-- One call is one statement: the advisory lock serializes the admissions of one account, service and month across
-- every process, and the sum that follows sees every admission committed before it (each statement of a PL/pgSQL
-- function takes a fresh snapshot), so parallel requests on any number of replicas cannot pass the limit.
CREATE FUNCTION metering_admit_hard_limited(
  p_month text, p_account uuid, p_key uuid, p_service text, p_endpoint text, p_limit bigint,
  OUT admitted boolean, OUT used bigint
) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_month || ' ' || p_account::text || ' ' || p_service, 727002));
  SELECT coalesce(sum(requests), 0)::bigint INTO used
    FROM usage_counts WHERE month = p_month AND account_id = p_account AND service = p_service;
  admitted := used < p_limit;
  IF NOT admitted THEN RETURN; END IF;
  INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests)
  VALUES (p_month, p_account, p_key, p_service, p_endpoint, 1)
  ON CONFLICT (month, account_id, key_id, service, endpoint) DO UPDATE SET requests = usage_counts.requests + 1;
  used := used + 1;
END
$$;

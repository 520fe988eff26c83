-- How many captures an inbox keeps: the oldest beyond it are deleted by the purge job.
ALTER TABLE webhook_inboxes ADD COLUMN max_requests integer NOT NULL DEFAULT 1000;

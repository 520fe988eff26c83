-- A Stack Exchange answer is no longer a page of its own beside its question (two results with one title): its text
-- is part of its question's page, as on the site. The answer pages loaded before go; the questions' pages get their
-- answers' text at the next load of the two sources: npm run ingest -- search-results --source stackexchange-coffee,stackexchange-beer
DELETE FROM web_pages WHERE dataset IN ('stackexchange-coffee', 'stackexchange-beer') AND url ~ '^https://[a-z]+\.stackexchange\.com/a/[0-9]+$';

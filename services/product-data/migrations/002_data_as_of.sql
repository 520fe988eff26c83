-- How old each product's price and rating are (GET /product's data_as_of): amazon.ca's file is Kaggle's "Amazon
-- Canada Products 2023", which records the year only; a product known from reviews is as of its newest review.
-- Ingestion writes it from now on; the rows already loaded get it here.
ALTER TABLE products ADD COLUMN data_as_of text;
UPDATE products SET data_as_of = '2023' WHERE dataset = 'amazon-ca';
UPDATE products p SET data_as_of = (SELECT to_char(max(r.reviewed_on), 'YYYY-MM-DD') FROM reviews r WHERE r.asin = p.asin)
WHERE p.rating_basis = 'reviews';

-- Radius and box searches: a GiST index over (longitude, latitude) answers "inside this box" with the rows inside it,
-- where the B-tree over (latitude, longitude) read the whole latitude band (thousands of rows across King County).
CREATE INDEX properties_point ON properties USING gist ((point(longitude, latitude)));

-- /estimate?address= and /property lookups by normalized address: equality, which the trigram index answers slowly.
CREATE INDEX properties_address_key ON properties (address_key);

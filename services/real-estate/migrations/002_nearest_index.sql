-- The nearest records to a point, in order, for /estimate's comparables: a GiST index over each record's place on a
-- plane local to it (longitude scaled by the cosine of its latitude), walked nearest first by `<->`.
CREATE INDEX properties_plane ON properties USING gist ((point(longitude * cos(radians(latitude)), latitude)));

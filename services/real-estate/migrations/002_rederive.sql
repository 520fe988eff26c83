-- The records' derivation changed: King County's city from its ZIP code, New York's county from the file's address
-- components, and the property a record belongs to (its parcel or address) in the valuation models. Stored rows
-- cannot be re-derived in SQL (the source columns are not kept), so the catalogue is emptied: the next start with
-- REAL_ESTATE_AUTOLOAD on (the default) loads the three files again, as on a fresh install, and refits the models;
-- or run `npm run ingest -- real-estate`. Every row here comes from the dataset files: nothing is lost.
DELETE FROM properties;
DELETE FROM valuation_models;

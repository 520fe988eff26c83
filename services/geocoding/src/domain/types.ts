/** One row of the GeoNames cities500 table, reduced to the columns the service uses. */
export interface RawPlace {
  id: number;
  name: string;
  asciiName: string;
  /** comma-separated, as in the GeoNames file: split while indexing, not kept */
  alternateNames: string;
  latitude: number;
  longitude: number;
  featureCode: string;
  countryCode: string;
  admin1Code: string;
  population: number;
  timezone: string;
}

/** What the gazetteer is built from: places, region names and translations. */
export interface GazetteerSource {
  places: RawPlace[];
  /** "US.TX" -> "Texas" */
  admin1Names: Map<string, string>;
  localizedNames: LocalizedNameSource;
}

/** Names per ISO 639-1 language, loaded on first use: most deployments see a handful of languages. */
export interface LocalizedNameSource {
  languages: string[];
  load(language: string): LocalizedNames;
}

export interface LocalizedNames {
  /** GeoNames id -> place name */
  places: Map<number, string>;
  /** "US.TX" -> region name */
  regions: Map<string, string>;
  /** "US" -> country name */
  countries: Map<string, string>;
}

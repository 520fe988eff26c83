/**
 * The three files of ../shared/datasets/real-estate (see its SOURCE.md) as ingestion sources. After each one, the
 * valuation model of its market is refitted and recalibrated on what the catalogue then holds.
 */
import path from "node:path";
import { type IngestionSource, MalformedRow, readCsv, settleTables, type UpsertCounts, upsertRows } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import { InvalidRecord, kingCountyProperty, newYorkProperty, sacramentoProperty, type Market, type Property } from "../domain/properties.js";
import { refitModel } from "../store/valuation.js";
import { uspsCityOfZip } from "./zip-cities.js";

type PropertyRow = Omit<Property, "details"> & { details: string };

const COLUMNS = [
  "id",
  "dataset",
  "market",
  "address",
  "address_key",
  "city",
  "county",
  "state",
  "zip",
  "price",
  "price_kind",
  "bedrooms",
  "bathrooms",
  "living_sqft",
  "lot_sqft",
  "year_built",
  "year_renovated",
  "property_type",
  "status",
  "latitude",
  "longitude",
  "sold_date",
  "listed_date",
  "details",
  "revision",
] as const;

function upsertProperties(db: Queryable, rows: PropertyRow[]): Promise<UpsertCounts> {
  return upsertRows(db, { table: "properties", key: ["id"], columns: COLUMNS, revision: "revision" }, rows);
}

function propertySource(options: {
  name: string;
  file: string;
  market: Market;
  attribution: Omit<IngestionSource["attribution"], "file">;
  toProperty: (record: Record<string, string>, line: number) => Property;
  now: () => Date;
}): IngestionSource<Record<string, string>, PropertyRow> {
  return {
    name: options.name,
    attribution: { file: `real-estate/${options.file}`, ...options.attribution },
    read: (context) => readCsv(path.join(context.datasetsDir, "real-estate", options.file), context),
    toRows(record, _context, line) {
      let property: Property;
      try {
        property = options.toProperty(record, line);
      } catch (error) {
        if (error instanceof InvalidRecord) throw new MalformedRow(error.message);
        throw error;
      }
      if (!(property.price > 0)) throw new MalformedRow(`price ${property.price} is not a price`);
      return [{ ...property, price: Math.round(property.price), details: JSON.stringify(property.details) }];
    },
    upsert: upsertProperties,
    finish: async (db: Database) => {
      // Fresh statistics first: without them the planner takes a filter matching thousands of rows for a dozen.
      await settleTables(db, ["properties"]);
      await refitModel(db, options.market, options.now());
    },
  };
}

export function datasetSources(now: () => Date = () => new Date()): IngestionSource<Record<string, string>, PropertyRow>[] {
  return [
    propertySource({
      name: "king-county-sales",
      file: "kc_house_data.csv",
      market: "king-county",
      now,
      attribution: {
        title: "House Sales in King County, USA (21,613 sales, May 2014 to May 2015)",
        upstream: "Kaggle harlfoxem/housesalesprediction, derived from King County Assessor public records",
        licence: "CC0 1.0 (as stated on the Kaggle page; recalled, not re-checked offline)",
        copied_from: "github.com/YichaoW/info474a3 @ 0f3ad6cf710cbd4d01e31fd1f818ec089a5d6829",
      },
      toProperty: (record, line) => kingCountyProperty(record, line, uspsCityOfZip),
    }),
    propertySource({
      name: "sacramento-sales",
      file: "Sacramentorealestatetransactions.csv",
      market: "sacramento",
      now,
      attribution: {
        title: "Sacramento real estate transactions (985 sales, May 2008)",
        upstream: 'SpatialKey sample file "Sacramento real estate transactions"',
        licence: "unclear (distributed as free sample data; no explicit licence found)",
        copied_from: "github.com/Cathy-duan/Project4 @ 316faf1968f9a3931faca00d2cf15ce2d613439d",
      },
      toProperty: sacramentoProperty,
    }),
    propertySource({
      name: "new-york-listings",
      file: "NY-House-Dataset.csv",
      market: "new-york",
      now,
      attribution: {
        title: "New York Housing Market (4,801 for-sale listings, about 2023)",
        upstream: "Kaggle nelgiriyewithana/new-york-housing-market (scraped listing-portal data with broker names)",
        licence: "unclear (the Kaggle page is believed to list CC BY 4.0; not verified offline)",
        copied_from: "github.com/Bhavanasiri2/New-York-Housing-Market @ 1ab70268e35a8f2905e7edeac61eeccaced607ee",
      },
      toProperty: newYorkProperty,
    }),
  ];
}

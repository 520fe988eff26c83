/**
 * The files of ../shared/datasets/company-data (see its SOURCE.md) as ingestion sources. Each fills its own table;
 * after the last of them (they share `finish`), the profiles are merged again from every table.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  MalformedRow,
  readCsv,
  readJsonArray,
  settleTables,
  type DatasetAttribution,
  type IngestContext,
  type IngestionSource,
  type ReaderItem,
} from "@apiplat/catalogue";
import type { Database } from "@apiplat/storage";
import {
  InvalidRecord,
  dbpediaRecord,
  fortuneRecord,
  indexFilingRecord,
  pdlRecord,
  secTickerRecord,
  submissionRecord,
  type SubmissionsDocument,
} from "../domain/records.js";
import { rebuildProfiles } from "../store/companies.js";
import { upsertSourceRows, type SourceRows } from "../store/records.js";

const FOLDER = "company-data";

/**
 * After any source: the profiles merged again and the planner's statistics refreshed. (Name search matches trigrams
 * of whole names, so the catalogue's word vocabulary is not used.)
 */
export async function refreshProfiles(db: Database): Promise<void> {
  await rebuildProfiles(db);
  await settleTables(db, ["companies", "filings"]);
}

/** Turns a domain parser's InvalidRecord into the catalogue's MalformedRow (reported and skipped). */
function rowsOf<R>(toRows: (record: R, line: number) => SourceRows[]): (record: R, context: IngestContext, line: number) => SourceRows[] {
  return (record, _context, line) => {
    try {
      return toRows(record, line);
    } catch (error) {
      if (error instanceof InvalidRecord) throw new MalformedRow(error.message);
      throw error;
    }
  };
}

function fileSource<R>(options: {
  name: string;
  attribution: Omit<DatasetAttribution, "file"> & { file: string };
  read: (file: string, context: IngestContext) => AsyncIterable<ReaderItem<R>>;
  toRows: (record: R, line: number) => SourceRows[];
}): IngestionSource<R, SourceRows> {
  return {
    name: options.name,
    attribution: { ...options.attribution, file: `${FOLDER}/${options.attribution.file}` },
    read: (context) => options.read(path.join(context.datasetsDir, FOLDER, options.attribution.file), context),
    toRows: rowsOf(options.toRows),
    upsert: upsertSourceRows,
    finish: refreshProfiles,
  };
}

/** A whole JSON document as one record (the submissions file is one company). */
async function* readJsonDocument<T>(file: string): AsyncGenerator<ReaderItem<T>> {
  const text = await readFile(file, "utf8");
  try {
    yield { line: 1, value: JSON.parse(text) as T };
  } catch {
    yield { line: 1, malformed: "the file is not valid JSON" };
  }
}

const UNCLEAR = "unclear (not verifiable offline)";

export function datasetSources(): IngestionSource<any, SourceRows>[] {
  return [
    fileSource<unknown>({
      name: "sec-tickers",
      attribution: {
        file: "sec_company_tickers_exchange.json",
        title: "SEC company tickers and exchanges (12,175 tickers of 9,198 companies, May 2022 snapshot)",
        upstream: "https://www.sec.gov/files/company_tickers_exchange.json",
        licence: "US federal government work, public domain (SEC EDGAR data)",
        copied_from: "github.com/kpjmcg/stock_analysis @ 6788529b6679a232983e836b2f7af61d279e68c5",
      },
      read: (file, context) => readJsonArray<unknown>(file, "data", context),
      toRows: (record, line) => [{ secTickers: [secTickerRecord(record, line, "sec-tickers")] }],
    }),
    fileSource<SubmissionsDocument>({
      name: "edgar-submissions",
      attribution: {
        file: "edgar_submissions_CIK0000717423.json",
        title: "EDGAR submissions record of Murphy Oil Corp (CIK 717423): company facts and 1,005 recent filings",
        upstream: "https://data.sec.gov/submissions/CIK0000717423.json",
        licence: "public domain (SEC EDGAR)",
        copied_from: "github.com/S1L3NTW0LF/SEC-files @ b27f0da6462e6905dfe95d6a5d0db14a44cccddd",
      },
      read: (file) => readJsonDocument<SubmissionsDocument>(file),
      toRows: (document) => {
        const { submission, filings } = submissionRecord(document, "edgar-submissions");
        return [{ submission, filings }];
      },
    }),
    fileSource<Record<string, string>>({
      name: "fortune-1000",
      attribution: {
        file: "fortune_1000_2021.csv",
        title: "Fortune 1000 (2021 list) with websites, tickers and market caps as of 2021-01-20",
        upstream: 'Kaggle "Fortune 500 data 2021" (winston56); the ranking is Fortune Media\'s compilation',
        licence: `${UNCLEAR}; the copy's repository is MIT-licensed, which covers its code, not this data`,
        copied_from: "github.com/BrandonHardatt/fortune-1000 @ 868d5e7310840eef1ec95cb9bf8795d08f8915e7",
      },
      read: (file, context) => readCsv(file, context),
      toRows: (record) => [{ fortune: fortuneRecord(record) }],
    }),
    fileSource<Record<string, string>>({
      name: "dbpedia-abstracts",
      attribution: {
        file: "dbpedia_company_abstracts.csv",
        title: "DBpedia company abstracts (641 Wikipedia abstracts of class Company)",
        upstream: "DBpedia Ontology Classification dataset (Zhang, Zhao & LeCun, 2015)",
        licence: "CC BY-SA and GNU FDL (the dataset's readme.txt)",
        copied_from: "github.com/joaopecomonteiro/CDLE @ bc6d3fda206e15174b35ba51e2f3a2ef3defce28",
      },
      read: (file, context) => readCsv(file, context),
      toRows: (record) => [{ dbpedia: dbpediaRecord(record) }],
    }),
    fileSource<Record<string, string>>({
      name: "pdl-sample",
      attribution: {
        file: "pdl_companies_sample.csv",
        title: "People Data Labs free company dataset, 9-row sample (founding year, size range, LinkedIn)",
        upstream: 'People Data Labs "Free 7+ Million Company Dataset" (Kaggle peopledatalabssf/free-7-million-company-dataset)',
        licence: UNCLEAR,
        copied_from: "github.com/SayaliVB/CMPE_273_Consistent_Hashing @ bb5db5a8d08c0d4f44e5d6aab930286c576bb82e",
      },
      read: (file, context) => readCsv(file, context),
      toRows: (record) => [{ pdl: pdlRecord(record) }],
    }),
    fileSource<Record<string, string>>({
      name: "edgar-daily-index",
      attribution: {
        file: "edgar_daily_index_2020-01-03.csv",
        title: "EDGAR daily master index of 2020-01-03 (7,989 filings by 4,722 filers), converted to CSV",
        upstream: "SEC EDGAR daily index (master.idx)",
        licence: "public domain (SEC EDGAR)",
        copied_from: "github.com/keskinmbaha/freed_finance @ f39a29a8521f9bae33b9fac4a69764dc8ec8542a",
      },
      read: (file, context) => readCsv(file, context),
      toRows: (record) => [{ filings: [indexFilingRecord(record)] }],
    }),
  ];
}

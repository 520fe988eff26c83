/**
 * The datasets of ../shared/datasets/search-results (see its SOURCE.md) and the linked news datasets of
 * ../shared/datasets/news, as ingestion sources into this service's own tables. Facts a dataset does not carry stay
 * null: Wikipedia rows have no page date, COCO images no thumbnail, UCI headlines no description.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  HUFFPOST_ATTRIBUTION,
  type HuffPostRecord,
  MalformedRow,
  UCI_NEWS_ATTRIBUTION,
  huffPostHeadline,
  readHuffPost,
  readUciNews,
  requiredField,
  uciHeadline,
  readCsv,
  readJsonArray,
  type IngestionSource,
  type ReaderItem,
} from "@apiplat/catalogue";
import {
  canonicalUrl,
  cleanText,
  collapse,
  htmlToText,
  isExplicit,
  parseDumpDate,
  parseDumpRow,
  unescapeName,
  wikipediaUrlOfDbpedia,
} from "../domain/pages.js";
import {
  refreshIndex,
  upsertCaptions,
  upsertImages,
  upsertNews,
  upsertPages,
  type CaptionRow,
  type ImageRow,
  type NewsRow,
  type WebPageRow,
} from "../store/index-writes.js";

function page(fields: Omit<WebPageRow, "id" | "explicit" | "text_config" | "language" | "keywords"> & { keywords?: string; language?: string }): WebPageRow {
  return {
    ...fields,
    id: fields.url,
    keywords: fields.keywords ?? "",
    language: fields.language ?? "en",
    text_config: "english",
    explicit: isExplicit(fields.title, fields.body),
  };
}

const CITATION = /\[\d+\]/g;

export function filmsSource(): IngestionSource<Record<string, string>, WebPageRow> {
  return {
    name: "wikipedia-films",
    attribution: {
      file: "search-results/web/wiki_movie_plots_sample.csv",
      title: "Wikipedia Movie Plots (1,999 American films, 1901 to 1935)",
      upstream: 'Kaggle "Wikipedia Movie Plots" (jrobischon/wikipedia-movie-plots), plot text from Wikipedia',
      licence: "CC BY-SA 4.0",
      copied_from: "github.com/Pavan94661222/Build-Fast-With-AI @ 473d7cfc844dfaa15798aed0b714c67ac5f2c110 (empty rows dropped)",
    },
    read: (context) => readCsv(path.join(context.datasetsDir, "search-results/web/wiki_movie_plots_sample.csv"), context),
    toRows(record, _context, line) {
      const url = requiredField(canonicalUrl(record["Wiki Page"] ?? ""), "Wiki Page");
      const title = requiredField(cleanText(record.Title), "Title");
      const body = requiredField(cleanText((record.Plot ?? "").replace(CITATION, " ")), "Plot");
      const known = (value: string | undefined) => (value && !/^unknown$/i.test(value.trim()) ? value : "");
      const keywords = collapse([record["Release Year"], known(record.Director), known(record.Cast), known(record.Genre)].join(" "));
      return [page({ dataset: "wikipedia-films", url, title, body, keywords, published_at: null, revision: line })];
    },
    upsert: upsertPages,
    finish: refreshIndex,
  };
}

export function peopleSource(): IngestionSource<Record<string, string>, WebPageRow> {
  return {
    name: "wikipedia-people",
    attribution: {
      file: "search-results/web/people_wiki_sample.csv",
      title: "people_wiki (1,470 Wikipedia biographies, first section, lower-cased without punctuation)",
      upstream: "University of Washington / Coursera Machine Learning Specialization, built from Wikipedia/DBpedia",
      licence: "CC BY-SA (Wikipedia-derived text); the course packaging states no licence",
      copied_from: "github.com/TheNewStat1/Machine_Learning_Specialization_UW @ f178864b785dd40f1fc25dfebcf9391ada6ccd9b",
    },
    read: (context) => readCsv(path.join(context.datasetsDir, "search-results/web/people_wiki_sample.csv"), context),
    toRows(record, _context, line) {
      const url = requiredField(wikipediaUrlOfDbpedia(record.URI ?? ""), "URI");
      const title = unescapeName(requiredField(cleanText(record.name), "name"));
      const body = requiredField(cleanText(record.text), "text");
      return [page({ dataset: "wikipedia-people", url, title, body, published_at: null, revision: line })];
    },
    upsert: upsertPages,
    finish: refreshIndex,
  };
}

/** A question as read so far: its own fields, and its text followed by the text of each answer read after it. */
interface DumpQuestion {
  id: string;
  title: string;
  tags: string;
  creationDate: string;
  text: string;
}

interface DumpRecord {
  row: Record<string, string>;
  /** For an answer: its question with the answers read so far, this one included (undefined when the file lacks it). */
  question?: DumpQuestion;
}

/**
 * A Stack Exchange Posts.xml, one `<row .../>` per line (as the dumps are written), streamed. Questions are
 * remembered so that each answer can be folded into its question's page (the text a question page shows is the
 * question and its answers).
 */
async function* readDumpRows(file: string, options: { limit?: number } = {}): AsyncGenerator<ReaderItem<DumpRecord>> {
  const stream = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const questions = new Map<string, DumpQuestion>();
  let line = 0;
  let count = 0;
  try {
    for await (const text of lines) {
      line += 1;
      if (!/^\s*<row[\s/]/.test(text)) continue;
      count += 1;
      const row = parseDumpRow(text);
      if (!row) yield { line, malformed: "the row is not a well-formed <row .../> element" };
      else {
        let question: DumpQuestion | undefined;
        if (row.PostTypeId === "1" && row.Id && row.Title) {
          questions.set(row.Id, { id: row.Id, title: row.Title, tags: row.Tags ?? "", creationDate: row.CreationDate ?? "", text: htmlToText(row.Body ?? "") });
        } else if (row.PostTypeId === "2" && row.ParentId && questions.has(row.ParentId)) {
          question = questions.get(row.ParentId)!;
          const answer = htmlToText(row.Body ?? "");
          if (answer) question.text = `${question.text}\n\n${answer}`;
        }
        yield { line, value: { row, question: question && { ...question } } };
      }
      if (options.limit !== undefined && count >= options.limit) break;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

function stackExchangeSource(site: "coffee" | "beer", copiedFrom: string, title: string): IngestionSource<DumpRecord, WebPageRow> {
  const dataset = `stackexchange-${site}`;
  const host = `https://${site}.stackexchange.com`;
  return {
    name: dataset,
    attribution: {
      file: `search-results/web/stackexchange_${site}_Posts.xml`,
      title,
      upstream: `Stack Exchange data dump of ${site}.stackexchange.com (posts by their authors, attribution to the site and the authors)`,
      licence: "CC BY-SA 3.0",
      copied_from: copiedFrom,
    },
    read: (context) => readDumpRows(path.join(context.datasetsDir, `search-results/web/stackexchange_${site}_Posts.xml`), context),
    /**
     * One page per question, as on the site: its text is the question's followed by its answers'. A question is
     * written when read, then again with each answer (a later revision, so the fullest version stays): an answer is
     * never a result of its own beside its question, with the same title.
     */
    toRows({ row, question }, _context, line) {
      // Only questions (1) and answers (2) are pages; tag wikis and other post types are not.
      if (row.PostTypeId !== "1" && row.PostTypeId !== "2") return [];
      requiredField(/^\d+$/.test(row.Id ?? "") ? row.Id : null, "Id");
      const questionPage = (fields: { id: string; title: string | undefined; tags: string; creationDate: string | undefined; text: string }) => {
        const publishedAt = parseDumpDate(fields.creationDate);
        if (!publishedAt) throw new MalformedRow(`CreationDate "${fields.creationDate ?? ""}" is not a date-time`);
        const keywords = fields.tags.replace(/[<>]/g, " ").replace(/-/g, " ");
        const title = requiredField(cleanText(fields.title), "Title");
        return page({ dataset, url: `${host}/questions/${fields.id}`, title, body: fields.text, keywords, published_at: publishedAt, revision: line });
      };
      if (row.PostTypeId === "1")
        return [questionPage({ id: row.Id, title: row.Title, tags: row.Tags ?? "", creationDate: row.CreationDate, text: htmlToText(row.Body ?? "") })];
      if (!question) throw new MalformedRow(`answer to question ${row.ParentId ?? "(none)"}, which the file does not hold before it`);
      if (!htmlToText(row.Body ?? "")) throw new MalformedRow("Body is empty");
      return [questionPage(question)];
    },
    upsert: upsertPages,
    finish: refreshIndex,
  };
}

export const coffeeSource = () =>
  stackExchangeSource(
    "coffee",
    "github.com/Yoav-Shafir/Elasticsearch-Coffee-Search-Engine-JS @ 97e93c92aaa379fed6d0ee9be94b2024371d6aba",
    "Coffee Stack Exchange posts (592 posts, 225 questions, 2015-01-27 to 2015-03-07)",
  );
const beerSource = () =>
  stackExchangeSource(
    "beer",
    "github.com/kevswanberg/beer_tentrr @ 9573647bff33c61bdce2f07a9000a4098fd3074d",
    "Beer, Wine & Spirits Stack Exchange posts (2,354 posts, 663 questions, 2014-01-21 to 2017-03-13)",
  );

const COCO_FILE = "search-results/images/coco_captions_val2017.json";
const COCO_ATTRIBUTION = {
  upstream: "COCO 2017 annotations (cocodataset.org); each image has its own Flickr licence, named in its result",
  licence: "annotations CC BY 4.0 (COCO terms of use); images are only linked",
  copied_from: "github.com/opensciencehack/Fork-of-Team-TimSort @ 90c44752af9932ce2f4c6c617842fb75f4a60941",
};

interface CocoLicence {
  id: number;
  name: string;
  url: string;
}
interface CocoImage {
  id?: number;
  file_name?: string;
  coco_url?: string;
  flickr_url?: string;
  width?: number;
  height?: number;
  license?: number;
}

async function* readCocoImages(file: string, options: { limit?: number }): AsyncGenerator<ReaderItem<{ image: CocoImage; licence?: CocoLicence }>> {
  const licences = new Map<number, CocoLicence>();
  for await (const item of readJsonArray<CocoLicence>(file, "licenses")) if (!("malformed" in item)) licences.set(item.value.id, item.value);
  for await (const item of readJsonArray<CocoImage>(file, "images", options)) {
    yield "malformed" in item ? item : { line: item.line, value: { image: item.value, licence: licences.get(item.value.license ?? -1) } };
  }
}

const positive = (value: unknown) => (typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null);

function cocoImagesSource(): IngestionSource<{ image: CocoImage; licence?: CocoLicence }, ImageRow> {
  return {
    name: "coco-images",
    attribution: { file: `${COCO_FILE} (images)`, title: "MS-COCO 2017 validation images (5,000, linked by URL)", ...COCO_ATTRIBUTION },
    read: (context) => readCocoImages(path.join(context.datasetsDir, COCO_FILE), context),
    toRows({ image, licence }, _context, line) {
      const id = positive(image.id);
      if (id === null) throw new MalformedRow("id is missing");
      const original = requiredField(canonicalUrl(image.coco_url ?? ""), "coco_url");
      return [
        {
          id,
          file_name: requiredField(image.file_name, "file_name"),
          original,
          flickr_url: canonicalUrl(image.flickr_url ?? ""),
          width: positive(image.width),
          height: positive(image.height),
          licence_name: licence?.name ?? null,
          licence_url: licence?.url ?? null,
          revision: line,
        },
      ];
    },
    upsert: upsertImages,
    finish: refreshIndex,
  };
}

function cocoCaptionsSource(): IngestionSource<{ id?: number; image_id?: number; caption?: string }, CaptionRow> {
  return {
    name: "coco-captions",
    attribution: { file: `${COCO_FILE} (annotations)`, title: "MS-COCO 2017 validation captions (25,014, about five per image)", ...COCO_ATTRIBUTION },
    read: (context) => readJsonArray(path.join(context.datasetsDir, COCO_FILE), "annotations", context),
    toRows(record, _context, line) {
      const id = positive(record.id);
      const imageId = positive(record.image_id);
      if (id === null) throw new MalformedRow("id is missing");
      if (imageId === null) throw new MalformedRow("image_id is missing");
      return [{ id, image_id: imageId, caption: requiredField(cleanText(record.caption), "caption"), revision: line }];
    },
    upsert: upsertCaptions,
    finish: refreshIndex,
  };
}

function newsRow(fields: Omit<NewsRow, "id" | "explicit">): NewsRow {
  return { ...fields, id: fields.url, explicit: isExplicit(fields.title, fields.snippet) };
}

export function huffPostSource(): IngestionSource<HuffPostRecord, NewsRow> {
  return {
    name: "news-huffpost",
    attribution: HUFFPOST_ATTRIBUTION,
    read: readHuffPost,
    toRows(record, _context, line) {
      const { url, title, date: publishedAt } = huffPostHeadline(record, { url: canonicalUrl, text: cleanText });
      return [
        newsRow({
          dataset: "news-huffpost",
          url,
          title,
          snippet: cleanText(record.short_description),
          source_name: "HuffPost",
          published_at: publishedAt,
          revision: line,
        }),
      ];
    },
    upsert: upsertNews,
    finish: refreshIndex,
  };
}

export function uciSource(): IngestionSource<Record<string, string>, NewsRow> {
  return {
    name: "news-uci",
    attribution: UCI_NEWS_ATTRIBUTION,
    read: readUciNews,
    toRows(record, _context, line) {
      // The sample escapes the query's "?" as "\?".
      const rules = { url: (raw: string) => canonicalUrl(raw.replace(/\\\?/g, "?")), text: cleanText };
      const { url, title, publisher, date } = uciHeadline(record, rules);
      return [newsRow({ dataset: "news-uci", url, title, snippet: null, source_name: publisher, published_at: date, revision: line })];
    },
    upsert: upsertNews,
    finish: refreshIndex,
  };
}

/** Every dataset source, in the order of the first load; they share one finish (run once, after the last). */
export function datasetSources(): IngestionSource<any, any>[] {
  return [filmsSource(), peopleSource(), coffeeSource(), beerSource(), cocoImagesSource(), cocoCaptionsSource(), huffPostSource(), uciSource()];
}

import { splitList } from "@apiplat/catalogue";
import { errors } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { valuesNoArticleHas, type ArticleCatalogue } from "../store/article-catalogue.js";
import { unknownValues } from "../store/articles.js";

const NAMES = { country: "country", category: "category", source: "source id" } as const;

/**
 * A 400 naming the values of a filter that no article has (`country=zz`, `sources=nonexistent-source`), as NewsAPI
 * answers an unknown source or country, rather than an empty page that looks like "no news". With the catalogue's
 * snapshot, values it has are let through without a query; the database has the last word on the others (an article
 * ingested since the snapshot was read).
 */
export async function refuseUnknown(
  db: Queryable,
  field: string,
  kind: keyof typeof NAMES,
  list: string | undefined,
  snapshot?: ArticleCatalogue,
): Promise<void> {
  if (list === undefined) return;
  const values = [...new Set(splitList(list.toLowerCase()))];
  if (values.length === 0) return;
  if (snapshot && (await valuesNoArticleHas(snapshot, kind, values)).length === 0) return;
  const { unknown, known } = await unknownValues(db, kind, values);
  if (unknown.length === 0) return;
  const some = kind === "source" ? "the largest sources are" : "the catalogue has";
  throw errors.validation(
    field,
    `names ${unknown.length === 1 ? `a ${NAMES[kind]}` : `${NAMES[kind]}s`} no article has: ${unknown.join(", ")} (${some} ${known.join(", ")}${kind === "source" ? "; see /sources" : ""})`,
  );
}

import type * as S from "../schemas.js";
import type { ArticleRecord } from "../store/articles.js";

export function articleView(row: ArticleRecord): S.Article {
  return {
    id: row.id,
    source: { id: row.source_id, name: row.source_name },
    author: row.author,
    title: row.title,
    description: row.description,
    url: row.url,
    image_url: row.image_url,
    published_at: row.published_at.toISOString(),
    category: row.category,
    country: row.country,
    language: row.language,
    popularity: row.popularity,
  };
}

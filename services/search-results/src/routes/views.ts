import type * as S from "../schemas.js";
import type { ImageHit, NewsHit, WebHit } from "../store/search-catalogue.js";

const IMAGE_SOURCE = "COCO 2017 (images from Flickr)";

export function organicResultView(hit: WebHit, position: number): S.OrganicResult {
  return {
    position,
    title: hit.title,
    link: hit.url,
    displayed_link: hit.displayed_link,
    ...(hit.snippet ?? { snippet: "", snippet_highlighted_words: [] }),
    source: hit.source,
    ...(hit.published_at ? { date: hit.published_at.toISOString() } : {}),
  };
}

export function imageResultView(hit: ImageHit, position: number): S.ImageResult {
  return {
    position,
    title: hit.title ?? "",
    original: hit.original,
    source: IMAGE_SOURCE,
    width: hit.width,
    height: hit.height,
    flickr_url: hit.flickr_url,
    licence: hit.licence_name && hit.licence_url ? { name: hit.licence_name, url: hit.licence_url } : null,
  };
}

export function newsResultView(hit: NewsHit, position: number): S.NewsResult {
  return {
    position,
    title: hit.title,
    link: hit.url,
    source: hit.source_name,
    date: hit.published_at.toISOString(),
    snippet: hit.snippet,
  };
}

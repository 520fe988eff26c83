import type * as S from "../schemas.js";
import type { ImageHit, NewsHit, WebHit } from "../store/search-catalogue.js";

const IMAGE_SOURCE = "COCO 2017 (images from Flickr)";

export function organicResultView(hit: WebHit, position: number): S.OrganicResult {
  // Fields named one by one rather than spread: spreading objects cost 2 % of a search.
  const view: S.OrganicResult = {
    position,
    title: hit.title,
    link: hit.url,
    displayed_link: hit.displayed_link,
    snippet: hit.snippet?.snippet ?? "",
    snippet_highlighted_words: hit.snippet?.snippet_highlighted_words ?? [],
    source: hit.source,
  };
  if (hit.published_at) view.date = hit.published_at.toISOString();
  return view;
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

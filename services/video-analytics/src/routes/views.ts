import type { VideoRecord } from "../store/videos.js";
import type * as S from "../schemas.js";

export function videoSummary(v: VideoRecord): S.VideoSummary {
  return {
    id: v.video_id,
    title: v.title,
    channel: v.channel_id && v.channel_title ? { id: v.channel_id, title: v.channel_title } : null,
    category: v.category_id === null ? null : { id: v.category_id, name: v.category_name },
    published_at: v.published_at?.toISOString() ?? null,
    thumbnail_url: v.thumbnail_url,
    metrics: { as_of: v.latest_trending_date, views: v.latest_views, likes: v.latest_likes, dislikes: v.latest_dislikes, comments: v.latest_comments },
    analytics: {
      engagement_rate: v.engagement_rate,
      views_gained_per_day: v.views_gained_per_day,
      days_trending: v.days_trending,
      countries: v.countries ?? [],
      peak_rank: v.peak_rank,
    },
  };
}

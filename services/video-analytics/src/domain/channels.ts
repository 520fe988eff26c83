/** A channel's figures from its videos' latest snapshots. */
import { round } from "./videos.js";

interface ChannelVideo {
  category_id: number | null;
  category_name: string | null;
  latest_views: number | null;
  latest_likes: number | null;
  latest_dislikes: number | null;
  latest_comments: number | null;
  engagement_rate: number | null;
}

export function channelTotals(videos: readonly ChannelVideo[]) {
  const sum = (pick: (v: ChannelVideo) => number | null) => videos.reduce((total, v) => total + (pick(v) ?? 0), 0);
  const rates = videos.map((v) => v.engagement_rate).filter((r): r is number => r !== null);
  return {
    totals: {
      videos: videos.length,
      views: sum((v) => v.latest_views),
      likes: sum((v) => v.latest_likes),
      dislikes: sum((v) => v.latest_dislikes),
      comments: sum((v) => v.latest_comments),
    },
    average_engagement_rate: rates.length ? round(rates.reduce((a, b) => a + b, 0) / rates.length, 6) : null,
  };
}

export function categoryMix(videos: readonly ChannelVideo[]) {
  const counts = new Map<number | null, { name: string | null; videos: number }>();
  for (const v of videos) {
    const entry = counts.get(v.category_id) ?? { name: v.category_name, videos: 0 };
    entry.videos += 1;
    counts.set(v.category_id, entry);
  }
  return [...counts]
    .map(([category_id, { name, videos: n }]) => ({ category_id, name, videos: n, share: round(n / videos.length, 4) }))
    .sort((a, b) => b.videos - a.videos || (a.category_id ?? 0) - (b.category_id ?? 0));
}

import { describe, expect, it } from "vitest";
import { categoryMix, channelTotals } from "../src/domain/channels.js";
import { channelId, dailyGains, dailyGrowthRate, parseTags, parseTrendingDate } from "../src/domain/videos.js";

describe("videos", () => {
  it("reads YY.DD.MM days and refuses impossible ones", () => {
    expect(parseTrendingDate("17.14.11")).toBe("2017-11-14");
    expect(parseTrendingDate("18.31.02")).toBeNull();
    expect(parseTrendingDate("2017-11-14")).toBeNull();
  });

  it("splits quoted tags and derives stable channel ids", () => {
    expect(parseTags('"SHANtell martin"|"new york"|vlog')).toEqual(["SHANtell martin", "new york", "vlog"]);
    expect(parseTags("[none]")).toEqual([]);
    expect(channelId(" CaseyNeistat ")).toBe(channelId("caseyneistat"));
    expect(channelId("CaseyNeistat")).toMatch(/^ch_[0-9a-f]{16}$/);
  });

  it("computes gains and growth from snapshots", () => {
    const snapshots = [
      { country: "us", trending_date: "2017-11-14", views: 1000, likes: 10, dislikes: 1, comments: 5, list_position: 3 },
      { country: "us", trending_date: "2017-11-16", views: 4000, likes: 30, dislikes: 2, comments: 9, list_position: 1 },
      { country: "gb", trending_date: "2017-11-15", views: 2000, likes: null, dislikes: null, comments: null, list_position: null },
    ];
    expect(dailyGains(snapshots)).toEqual([
      { country: "us", from: "2017-11-14", to: "2017-11-16", days: 2, views_gained: 3000, views_per_day: 1500, likes_gained: 20, comments_gained: 4 },
    ]);
    expect(dailyGrowthRate(snapshots)).toBe(1);
  });
});

describe("channels", () => {
  it("totals videos and mixes categories", () => {
    const videos = [
      { category_id: 10, category_name: "Music", latest_views: 100, latest_likes: 10, latest_dislikes: 1, latest_comments: 2, engagement_rate: 0.12 },
      { category_id: 10, category_name: "Music", latest_views: 300, latest_likes: 30, latest_dislikes: 3, latest_comments: 6, engagement_rate: 0.12 },
      {
        category_id: 24,
        category_name: "Entertainment",
        latest_views: 50,
        latest_likes: null,
        latest_dislikes: null,
        latest_comments: null,
        engagement_rate: null,
      },
    ];
    expect(channelTotals(videos)).toEqual({ totals: { videos: 3, views: 450, likes: 40, dislikes: 4, comments: 8 }, average_engagement_rate: 0.12 });
    expect(categoryMix(videos)).toEqual([
      { category_id: 10, name: "Music", videos: 2, share: 0.6667 },
      { category_id: 24, name: "Entertainment", videos: 1, share: 0.3333 },
    ]);
  });
});

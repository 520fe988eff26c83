import { describe, expect, it } from "vitest";
import { coco, useIndexedService } from "./helpers.js";

const data = coco();
const loaded = new Set(data.images.map((i) => i.id));
/** Each loaded image's loaded captions, in annotation id order. */
const captions = new Map<number, string[]>();
for (const a of [...data.annotations].sort((x, y) => x.id - y.id)) {
  if (loaded.has(a.image_id)) captions.set(a.image_id, [...(captions.get(a.image_id) ?? []), a.caption.replace(/\s+/g, " ").trim()]);
}

const get = useIndexedService();

describe("GET /images", () => {
  it("finds an image by its caption, with every field as the file has it", async () => {
    const [imageId, texts] = [...captions.entries()].find(([, c]) => c.length >= 2 && c[0].split(" ").length >= 6)!;
    const image = data.images.find((i) => i.id === imageId)!;
    const licence = data.licenses.find((l) => l.id === image.license)!;
    const { status, body } = await get(`/images?q=${encodeURIComponent(`"${texts[0].replace(/[."]/g, "")}"`)}&num=100`);
    expect(status).toBe(200);
    const result = body.data.images_results.find((r: { original: string }) => r.original === image.coco_url);
    expect(result).toEqual({
      position: expect.any(Number),
      title: texts[0],
      original: image.coco_url,
      source: "COCO 2017 (images from Flickr)",
      width: image.width,
      height: image.height,
      flickr_url: image.flickr_url,
      licence: { name: licence.name, url: licence.url },
    });
    expect(result.thumbnail).toBeUndefined();
  });

  it("counts the images whose captions hold a word", async () => {
    // One caption of the file is itself stemmed ("two giraff one close"): it counts, as English stemming makes it so.
    const expected = [...captions.values()].filter((c) => c.some((t) => /\bgiraff(e|es)?\b/i.test(t))).length;
    expect(expected).toBeGreaterThan(0);
    const { body } = await get("/images?q=giraffe&num=100");
    expect(body.data.search_information.total_results).toBe(expected);
    expect(body.data.images_results).toHaveLength(Math.min(expected, 100));
    expect(body.data.images_results.map((r: { position: number }) => r.position)).toEqual(Array.from({ length: Math.min(expected, 100) }, (_, i) => i + 1));
  });

  it("pages, corrects typos, and answers nothing for another language", async () => {
    const all = (await get("/images?q=giraffe")).body.data.search_information.total_results;
    const typo = (await get("/images?q=girafe")).body.data.search_information;
    expect(typo).toMatchObject({ showing_results_for: "giraffe", total_results: all });
    const last = Math.ceil(all / 2);
    const lastPage = await get(`/images?q=giraffe&num=2&page=${last}`);
    expect(lastPage.body.data.images_results).toHaveLength(all - (last - 1) * 2);
    expect(lastPage.body.data.pagination.next).toBeNull();
    expect((await get("/images?q=giraffe&language=de")).body.data.search_information.total_results).toBe(0);
    expect((await get("/images?q=giraffe&num=101")).status).toBe(400);
  });
});

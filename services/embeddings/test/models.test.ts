import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddings, type Harness } from "./support/service.js";

let h: Harness;
beforeAll(async () => {
  h = await startEmbeddings();
}, 120_000);
afterAll(() => h?.started.close());

describe("GET /models", () => {
  it("lists every model with installed, dimensions, max tokens, languages and the default", async () => {
    const res = await h.started.app.inject({ method: "GET", url: "/models", headers: h.caller.headers });
    expect(res.statusCode).toBe(200);
    const { models, default_model } = res.json().data;
    expect(default_model).toBe("universal-sentence-encoder-lite");
    const byId = Object.fromEntries(models.map((m: { id: string }) => [m.id, m]));
    expect(Object.keys(byId)).toEqual(["universal-sentence-encoder-lite", "all-MiniLM-L6-v2", "all-mpnet-base-v2", "paraphrase-multilingual-mpnet-base-v2"]);
    expect(byId["universal-sentence-encoder-lite"]).toMatchObject({
      installed: true,
      default: true,
      dimensions: 512,
      max_tokens: 512,
      window_tokens: 128,
      languages: ["en"],
    });
    expect(byId["all-MiniLM-L6-v2"].max_tokens).toBe(512);
    expect(byId["all-MiniLM-L6-v2"]).toMatchObject({ installed: false, default: false, dimensions: 384, pooling: "mean", runtime: "transformers" });
    expect(byId["all-mpnet-base-v2"]).toMatchObject({ installed: false, dimensions: 768 });
    expect(byId["paraphrase-multilingual-mpnet-base-v2"]).toMatchObject({
      installed: false,
      dimensions: 768,
      languages: ["multilingual"],
      endpoint: "/embed/multilingual",
    });
    // Which files are missing and where they go stay in the operator's log.
    expect(Object.keys(byId["all-MiniLM-L6-v2"])).not.toContain("install");
    expect(JSON.stringify(res.json())).not.toMatch(/MODELS_DIR|Docker|build argument|not found/);
  });

  it("needs a key", async () => {
    expect((await h.started.app.inject({ method: "GET", url: "/models" })).statusCode).toBe(401);
  });

  it("counts computed and cached texts in /metrics", async () => {
    await h.post("/embed", { input: ["metrics one", "metrics two"] });
    await h.post("/embed", { input: ["metrics one"] });
    const text = (await h.started.app.inject({ method: "GET", url: "/metrics" })).body;
    const value = (name: string) => Number(new RegExp(`^${name}\\{service="embeddings"\\} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value("embeddings_texts_computed_total")).toBeGreaterThanOrEqual(2);
    expect(value("embeddings_texts_shared_total")).toBeGreaterThanOrEqual(1);
    expect(value("embeddings_cached_vectors")).toBeGreaterThanOrEqual(2);
    expect(value("embeddings_queued_texts")).toBe(0);
  });

  it("is ready once the workers have loaded the default model", async () => {
    const res = await h.started.app.inject({ method: "GET", url: "/ready" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.checks.inference).toBe("ok");
  });
});

export const SAFE_BROWSING_THREAT_TYPES = ["MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"] as const;

export const SAFE_BROWSING_DEFAULT_ENDPOINT = "https://safebrowsing.googleapis.com/v4/threatMatches:find";
/** The Lookup API accepts at most 500 threat entries per request. */
const MAX_ENTRIES_PER_REQUEST = 500;

export interface SafeBrowsingOptions {
  apiKey: string;
  endpoint: string;
  timeoutMs: number;
  clientId: string;
  clientVersion: string;
}

export class SafeBrowsingUnavailableError extends Error {}

interface ThreatMatchesResponse {
  matches?: Array<{ threatType?: string; threat?: { url?: string } }>;
}

/** Google Safe Browsing v4 Lookup API (threatMatches:find). Returns the threat type per flagged URL. */
export class SafeBrowsingClient {
  constructor(private readonly options: SafeBrowsingOptions) {}

  async lookup(urls: readonly string[]): Promise<Map<string, string>> {
    const flagged = new Map<string, string>();
    for (let i = 0; i < urls.length; i += MAX_ENTRIES_PER_REQUEST) {
      const batch = urls.slice(i, i + MAX_ENTRIES_PER_REQUEST);
      for (const [url, threat] of await this.lookupBatch(batch)) flagged.set(url, threat);
    }
    return flagged;
  }

  private async lookupBatch(urls: readonly string[]): Promise<Map<string, string>> {
    const endpoint = new URL(this.options.endpoint);
    endpoint.searchParams.set("key", this.options.apiKey);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(this.requestBody(urls)),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new SafeBrowsingUnavailableError(timedOut ? `no answer within ${this.options.timeoutMs} ms` : "request failed");
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SafeBrowsingUnavailableError(`answered HTTP ${response.status}`);
    }
    let parsed: ThreatMatchesResponse;
    try {
      parsed = (await response.json()) as ThreatMatchesResponse;
    } catch {
      throw new SafeBrowsingUnavailableError("answered with a body that is not JSON");
    }
    const flagged = new Map<string, string>();
    for (const match of parsed.matches ?? []) {
      const url = match.threat?.url;
      if (url && urls.includes(url) && !flagged.has(url)) flagged.set(url, match.threatType ?? "THREAT_TYPE_UNSPECIFIED");
    }
    return flagged;
  }

  private requestBody(urls: readonly string[]) {
    return {
      client: { clientId: this.options.clientId, clientVersion: this.options.clientVersion },
      threatInfo: {
        threatTypes: SAFE_BROWSING_THREAT_TYPES,
        platformTypes: ["ANY_PLATFORM"],
        threatEntryTypes: ["URL"],
        threatEntries: urls.map((url) => ({ url })),
      },
    };
  }
}

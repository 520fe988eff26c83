import { existsSync, readFileSync } from "node:fs";
import type { Static } from "typebox";
import { LOCAL_TOKEN_FILE } from "./auth/token.js";
import type { CreatedAccountSchema, NewKeySchema } from "./schemas.js";

const USAGE = `Usage: npm run admin -- <command> [arguments]

  accounts create <name>                     make an account
  accounts list                              list accounts
  accounts show <account_id>                 an account with its subscriptions and keys
  subscribe <account_id> <service|*> <plan>  set the plan (BASIC, PRO, ULTRA, MEGA) for one service or all
  keys create <account_id>                   make an API key (the clear key is shown only now)
  keys revoke <key_id>                       revoke a key
  usage <account_id> [YYYY-MM]               requests per service and endpoint
  invoice <account_id> [YYYY-MM]             what the month costs
  quickstart <name> [plan]                   account + every service on a plan (default PRO) + a key

Talks to the admin API at ADMIN_URL (default http://127.0.0.1:3000) with ADMIN_TOKEN
(default: the token a local start wrote to .data/admin-token).`;

const baseUrl = process.env.ADMIN_URL ?? "http://127.0.0.1:3000";

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  if (existsSync(LOCAL_TOKEN_FILE)) return readFileSync(LOCAL_TOKEN_FILE, "utf8").trim();
  throw new Error("Set ADMIN_TOKEN (or start the platform locally, which writes .data/admin-token).");
}

/** One admin API request; `Data` is what the route's schema says its success carries. */
async function call<Data = unknown>(method: string, path: string, body?: unknown): Promise<Data> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${adminToken()}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = (await response.json()) as { status: string; data?: unknown; error?: { message: string } };
  if (payload.status !== "success") throw new Error(`${response.status}: ${payload.error?.message ?? "request failed"}`);
  return payload.data as Data;
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new Error(`missing ${what}\n\n${USAGE}`);
  return value;
}

async function run(args: string[]): Promise<unknown> {
  const [command, sub, ...rest] = args;
  const month = (m?: string) => (m ? `&month=${encodeURIComponent(m)}` : "");
  switch (`${command} ${command === "accounts" || command === "keys" ? sub : ""}`.trim()) {
    case "accounts create":
      return call("POST", "/admin/accounts", { name: need(rest.join(" "), "name") });
    case "accounts list":
      return call("GET", "/admin/accounts");
    case "accounts show":
      return call("GET", `/admin/accounts/${need(rest[0], "account_id")}`);
    case "subscribe":
      return call("PUT", `/admin/accounts/${need(sub, "account_id")}/subscriptions/${encodeURIComponent(need(rest[0], "service"))}`, {
        plan: need(rest[1], "plan").toUpperCase(),
      });
    case "keys create":
      return call("POST", `/admin/accounts/${need(rest[0], "account_id")}/keys`);
    case "keys revoke":
      return call("DELETE", `/admin/keys/${need(rest[0], "key_id")}`);
    case "usage":
      return call("GET", `/admin/usage?account_id=${need(sub, "account_id")}${month(rest[0])}`);
    case "invoice":
      return call("GET", `/admin/invoices?account_id=${need(sub, "account_id")}${month(rest[0])}`);
    case "quickstart": {
      const account = await call<Static<typeof CreatedAccountSchema>>("POST", "/admin/accounts", { name: need(sub, "name") });
      await call("PUT", `/admin/accounts/${account.id}/subscriptions/*`, { plan: (rest[0] ?? "PRO").toUpperCase() });
      const key = await call<Static<typeof NewKeySchema>>("POST", `/admin/accounts/${account.id}/keys`);
      return { account_id: account.id, plan: (rest[0] ?? "PRO").toUpperCase(), key_id: key.id, key: key.key };
    }
    case "undefined":
    case "help":
    case "--help":
      console.log(USAGE);
      return undefined;
    default:
      throw new Error(`unknown command "${args.join(" ")}"\n\n${USAGE}`);
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    if (result !== undefined) console.log(JSON.stringify(result, null, 2));
  },
  (error: Error) => {
    console.error(`admin: ${error.message}`);
    process.exit(1);
  },
);

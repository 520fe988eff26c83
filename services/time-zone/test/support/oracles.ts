/** Independent answers from this machine's own tools over the same compiled tz database: zdump and Python. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface OracleTransition {
  at: number;
  offsetSeconds: number;
  isDst: boolean;
  abbreviation: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ZDUMP_LINE = /^(\S+)\s+\w{3} (\w{3})\s+(\d+) (\d\d):(\d\d):(\d\d) (-?\d+) UT = .* (\S+) isdst=(\d) gmtoff=(-?\d+)$/;

function run(command: string, args: string[], input: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => errors.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(Buffer.concat(chunks).toString("utf8")) : reject(new Error(`${command} exited ${code}: ${Buffer.concat(errors).toString("utf8")}`)),
    );
    child.stdin.end(input);
  });
}

/**
 * Every transition zdump finds from `fromYear` up to (not including) `toYear`. zdump prints each transition as
 * two lines, the second before it and the second it starts; the second line of each such pair is kept.
 */
export async function zdumpTransitions(tzdir: string, zones: string[], fromYear: number, toYear: number): Promise<Map<string, OracleTransition[]>> {
  const output = await run("zdump", ["-v", "-c", `${fromYear},${toYear}`, ...zones], "", { TZDIR: tzdir });
  const byZone = new Map<string, OracleTransition[]>(zones.map((z) => [z, []]));
  const previous = new Map<string, number>();
  for (const line of output.split("\n")) {
    const m = ZDUMP_LINE.exec(line);
    if (!m) continue;
    const at = Date.UTC(Number(m[7]), MONTHS.indexOf(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000;
    if (previous.get(m[1]) === at - 1) {
      byZone.get(m[1])!.push({ at, offsetSeconds: Number(m[10]), isDst: m[9] === "1", abbreviation: m[8] });
    }
    previous.set(m[1], at);
  }
  return byZone;
}

export interface ZoneinfoAnswers {
  /** Per zone and instant: [offset seconds, abbreviation, DST amount in seconds as zoneinfo infers it]. */
  instants: Record<string, [number, string, number][]>;
  /** Per zone and wall reading: [instant with fold=0, instant with fold=1]. */
  walls: Record<string, [number, number][]>;
}

export async function zoneinfoAnswers(tzdir: string, instants: Record<string, number[]>, walls: Record<string, number[][]>): Promise<ZoneinfoAnswers> {
  const script = fileURLToPath(new URL("./zoneinfo_oracle.py", import.meta.url));
  const output = await run("python3", [script], JSON.stringify({ tzdir, instants, walls }), {});
  return JSON.parse(output) as ZoneinfoAnswers;
}

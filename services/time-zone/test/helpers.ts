import { civilToSeconds } from "../src/domain/civil.js";

/** Seconds since the epoch of a civil time read as UTC. */
export const at = (year: number, month: number, day: number, hour = 0, minute = 0) => civilToSeconds({ year, month, day, hour, minute, second: 0 });

/** A hand-made TZif file: `version` 1 or 2, two types, one transition at `transitionAt`. */
export function tzif(version: 1 | 2, transitionAt: number, footer = ""): Buffer {
  const header = (timeCount: number) => {
    const h = Buffer.alloc(44);
    h.write("TZif", 0, "latin1");
    h[4] = version === 1 ? 0 : 0x32;
    [0, 0, 0, timeCount, 2, 8].forEach((count, i) => h.writeUInt32BE(count, 20 + i * 4));
    return h;
  };
  const block = (timeSize: 4 | 8) => {
    const time = Buffer.alloc(timeSize);
    if (timeSize === 8) time.writeBigInt64BE(BigInt(transitionAt));
    else time.writeInt32BE(Math.min(transitionAt, 2 ** 31 - 1)); // version 1 data cannot say 2100; readers skip it
    const types = Buffer.alloc(12);
    types.writeInt32BE(0, 0);
    types[5] = 0;
    types.writeInt32BE(3600, 6);
    types[10] = 1;
    types[11] = 4;
    return Buffer.concat([time, Buffer.from([1]), types, Buffer.from("AAA\0BBB\0", "latin1")]);
  };
  if (version === 1) return Buffer.concat([header(1), block(4)]);
  return Buffer.concat([header(1), block(4), header(1), block(8), Buffer.from(`\n${footer}\n`, "latin1")]);
}

// Runs inside Chromium's network namespace (see chromium-in-netns.sh): 127.0.0.1:<port> there is the forward
// proxy's Unix socket outside. Exits when Chromium (its parent, after exec) is gone.
import { writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";

const [port, socketPath, readyFile] = process.argv.slice(2);
const parent = process.ppid;
// Already orphaned: Chromium is gone before the relay started.
if (parent === 1) process.exit(0);

const server = createServer((client) => {
  const upstream = connect(socketPath);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.listen(Number(port), "127.0.0.1", () => writeFileSync(readyFile, ""));
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500);

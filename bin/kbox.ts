#!/usr/bin/env node
import { main } from "../src/main.js";

// A reader that stops early (`kbox ask --json | head -1`) closes the pipe: that ends our output,
// quietly, as it does for other Unix tools; it is not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") stream.destroy();
    else throw e;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`kbox: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);

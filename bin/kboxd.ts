#!/usr/bin/env node
import { main } from "../daemon/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`kboxd: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);

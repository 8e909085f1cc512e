/**
 * Generate completions/ and man/man1/ from the commander tree: `npm run gen:docs`.
 * `--check` exits 1 (listing the files) when the committed files are out of date.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { staleDocs, writeDocs } from "../src/commands/man-docs.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv.includes("--check")) {
  const stale = await staleDocs(root);
  if (stale.length) {
    process.stderr.write(`out of date (run \`npm run gen:docs\`):\n${stale.map((f) => `  ${f}`).join("\n")}\n`);
    process.exitCode = 1;
  } else process.stdout.write("completions and man pages are up to date\n");
} else {
  for (const f of await writeDocs(root)) process.stdout.write(`${f}\n`);
}

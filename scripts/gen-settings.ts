/**
 * Write docs/settings.md from the daemon's settings module (daemon/settings/variables.ts), the one
 * place each variable is declared: `npm run gen:settings`. `--check` exits 1 when the file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { OTHER_VARIABLES, VARIABLES } from "../daemon/settings/variables.js";

const FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "settings.md");

const HEAD = `# Settings

<!-- Generated from daemon/settings/variables.ts by \`npm run gen:settings\`; edit there. -->

kboxd reads its settings once, at start, from its environment: a daemon started by \`kbox\` has the
environment of the \`kbox\` command that started it, so \`KBOX_INGEST_CONCURRENCY=4 kbox daemon start\`
(after \`kbox daemon stop\`) changes one. A value that cannot be used stops the daemon at start with a
message naming the variable (\`kboxd: KBOX_EXTRACT_WORKERS must be a whole number from 1 to 64, not "0"\`);
every bad variable is named at once. An empty value counts as unset.

The command-line flags (\`--listen\`, \`--trust-roles-header\`, \`--foreground\`) are in \`kboxd --help\`;
the CLI's own variables (\`KBOX_KB\`, \`KBOX_PROFILE\`, \`KBOX_URL\`, \`KBOX_API_KEY\`...) are in the README.
`;

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function settingsDoc(): string {
  const rows = [...Object.values(VARIABLES), ...OTHER_VARIABLES].map(
    (v) => `| \`${v.name}\` | ${cell(v.type)} | ${cell(v.default)} | ${cell(v.doc)} |`,
  );
  return `${HEAD}\n| Variable | Type | Default | What it does |\n| --- | --- | --- | --- |\n${rows.join("\n")}\n`;
}

const want = settingsDoc();
if (process.argv.includes("--check")) {
  let have = "";
  try {
    have = readFileSync(FILE, "utf8");
  } catch {
    // missing: stale
  }
  if (have !== want) {
    process.stderr.write("docs/settings.md is out of date (run `npm run gen:settings`)\n");
    process.exitCode = 1;
  } else process.stdout.write("docs/settings.md is up to date\n");
} else {
  writeFileSync(FILE, want);
  process.stdout.write("docs/settings.md\n");
}

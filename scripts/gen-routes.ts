/**
 * Generate src/client/routes/ from src/api: `npm run gen:routes`. `--check` exits 1 (listing the
 * files) when the committed files are out of date.
 *
 * src/api stays the one definition of the wire. For every api module with routes or plain JSON
 * constants, the generated module holds each route's method, path and stream kind (a RouteRef typed
 * by the src/api route) and the module's JSON constants, and re-exports the module's types. Commands
 * import only those (a lint rule in biome.json keeps it so), so a CLI run does not load zod and every
 * wire schema just to learn a URL, a default or a version.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const API = join(root, "src/api");
const OUT = join(root, "src/client/routes");

type Rec = Record<string, unknown>;
const isObject = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isRoute = (v: unknown): v is Rec =>
  isObject(v) && typeof v.method === "string" && typeof v.path === "string" && "response" in v && "role" in v;
/** A record whose leaves are all routes (e.g. the by-id and by-slug forms of one endpoint). */
const isRouteTree = (v: unknown): boolean =>
  isRoute(v) || (isObject(v) && Object.keys(v).length > 0 && Object.values(v).every(isRouteTree));

function refLiteral(v: unknown, indent: string): string {
  if (isRoute(v))
    return `{ method: ${JSON.stringify(v.method)}, path: ${JSON.stringify(v.path)}, stream: ${JSON.stringify(v.stream ?? false)} }`;
  const inner = Object.entries(v as Rec).map(
    ([k, sub]) => `${indent}  ${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${refLiteral(sub, `${indent}  `)},`,
  );
  return `{\n${inner.join("\n")}\n${indent}}`;
}

/** A constant that JSON carries faithfully (no schemas, functions, undefined or special numbers). */
function jsonConstant(v: unknown): string | undefined {
  if (typeof v === "function" || v === undefined) return undefined;
  let text: string;
  try {
    text = JSON.stringify(v);
  } catch {
    return undefined;
  }
  if (text === undefined || !isDeepStrictEqual(JSON.parse(text), v)) return undefined;
  return text;
}

/** The generated module for one api module, or undefined when it has neither routes nor JSON constants. */
function routesModule(name: string, mod: Rec): string | undefined {
  const lines: string[] = [];
  let routes = 0;
  let constants = 0;
  // Sorted: an ESM namespace is, but a test runner's module object may not be.
  for (const [key, value] of Object.entries(mod).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (isRouteTree(value)) {
      routes++;
      lines.push(`export const ${key}: Routed<typeof api.${key}> = ${refLiteral(value, "")};`);
    } else {
      const json = jsonConstant(value);
      if (json !== undefined) {
        constants++;
        lines.push(`export const ${key}: typeof api.${key} = ${json};`);
      }
    }
  }
  if (!routes && !constants) return undefined;
  return [
    `// Generated from src/api/${name}.ts by scripts/gen-routes.ts (\`npm run gen:routes\`): do not edit.`,
    routes
      ? `/** The routes of src/api/${name}.ts as RouteRefs (method and path), its JSON constants, and its types. */`
      : `/** The JSON constants and the types of src/api/${name}.ts. */`,
    `import type * as api from "../../api/${name}.js";`,
    ...(routes ? [`import type { Routed } from "../client.js";`] : []),
    "",
    `export type * from "../../api/${name}.js";`,
    "",
    ...lines,
    "",
  ].join("\n");
}

/** The text as the project's formatter (biome, as `npm run lint` checks it) would write it. */
function formatted(file: string, text: string): string {
  const biome = join(root, "node_modules/.bin/biome");
  return execFileSync(biome, ["format", `--stdin-file-path=${join(OUT, file)}`], { input: text, encoding: "utf8", cwd: root });
}

/** Every generated file, keyed by its name under src/client/routes/. */
export async function routeFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const names = readdirSync(API)
    .filter((f) => f.endsWith(".ts") && f !== "index.ts")
    .map((f) => f.slice(0, -3))
    .sort();
  for (const name of names) {
    const mod = (await import(pathToFileURL(join(API, `${name}.ts`)).href)) as Rec;
    const text = routesModule(name, mod);
    if (text) files[`${name}.ts`] = formatted(`${name}.ts`, text);
  }
  return files;
}

/** Generated files that differ from the committed ones (missing, changed, or left over). */
export async function staleRoutes(dir = OUT): Promise<string[]> {
  const files = await routeFiles();
  const present = (() => {
    try {
      return readdirSync(dir).filter((f) => f.endsWith(".ts"));
    } catch {
      return [];
    }
  })();
  const read = (f: string) => {
    try {
      return readFileSync(join(dir, f), "utf8");
    } catch {
      return undefined;
    }
  };
  const changed = Object.entries(files)
    .filter(([f, text]) => read(f) !== text)
    .map(([f]) => f);
  return [...changed, ...present.filter((f) => !(f in files))].map((f) => join("src/client/routes", f));
}

async function cli(): Promise<void> {
  if (process.argv.includes("--check")) {
    const stale = await staleRoutes();
    if (stale.length) {
      process.stderr.write(`out of date (run \`npm run gen:routes\`):\n${stale.map((f) => `  ${f}`).join("\n")}\n`);
      process.exitCode = 1;
    } else process.stdout.write("src/client/routes is up to date\n");
    return;
  }
  const files = await routeFiles();
  mkdirSync(OUT, { recursive: true });
  for (const f of readdirSync(OUT)) if (f.endsWith(".ts") && !(f in files)) rmSync(join(OUT, f));
  for (const [f, text] of Object.entries(files)) {
    writeFileSync(join(OUT, f), text);
    process.stdout.write(`src/client/routes/${f}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await cli();

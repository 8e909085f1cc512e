import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleRoutes } from "../../scripts/gen-routes.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { Context } from "../../src/cli/context.js";
import { bufferIO } from "../../src/cli/io.js";
import { buildProgram, COMMANDS, commandsFor } from "../../src/commands/index.js";
import { runCli, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

const root = join(import.meta.dirname, "../..");
const tmp = mkdtempSync(join(tmpdir(), "kbox-startup-"));
let d: TestDaemon;

// A module hook that appends the URL of every module the CLI process loads to a file.
const hooks = join(tmp, "trace-hooks.mjs");
const register = join(tmp, "trace.mjs");
writeFileSync(
  hooks,
  `import { appendFileSync } from "node:fs";
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) { appendFileSync(file, url + "\\n"); return next(url, context); }
`,
);
writeFileSync(
  register,
  `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { file: process.env.KBOX_TRACE_FILE } });
`,
);

/** Run the real `kbox` (TypeScript source under tsx) in a child process; returns its output and loaded modules. */
function traced(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string; modules: string[] }> {
  const file = join(tmp, `trace-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, "");
  const child = spawn(process.execPath, ["--import", "tsx", "--import", register, join(root, "bin/kbox.ts"), ...args], {
    cwd: root,
    env: { ...process.env, ...env, KBOX_TRACE_FILE: file, KBOX_PROFILE: "", KBOX_URL: "" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const modules = readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((u) => u.replace(pathToFileURL(root).href, ""));
      resolve({ code, stdout, stderr, modules });
    });
  });
}

const commandModules = (modules: string[]) => modules.filter((m) => m.startsWith("/src/commands/")).sort();

beforeAll(async () => {
  d = await startTestDaemon();
  const kb = await d.client.call(kbs.createKb, { body: { slug: "notes" } });
  await d.client.call(resources.createResource, {
    params: { kbid: kb.uuid },
    body: { title: "Fox", texts: { body: { body: "The quick brown fox jumps over the lazy dog." } } },
  });
  await d.daemon.services.processing.idle();
});
afterAll(async () => {
  await d?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe("kbox start-up loads only what the command needs", () => {
  it("`kb list --json` loads the kb command alone: no zod, ink, react or daemon code", async () => {
    const r = await traced(["kb", "list", "--json"], d.env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).kbs.map((k: { slug: string }) => k.slug)).toEqual(["notes"]);
    expect(r.modules.some((m) => m.endsWith("/src/commands/kb/list.ts"))).toBe(true);
    const commands = commandModules(r.modules);
    expect(commands.filter((m) => !m.startsWith("/src/commands/kb/") && !m.startsWith("/src/commands/backup/"))).toEqual([
      "/src/commands/index.ts",
    ]);
    for (const heavy of [
      "/node_modules/zod/",
      "/node_modules/ink/",
      "/node_modules/react/",
      "/daemon/",
      "/src/tui/",
      "/node_modules/undici/",
    ]) {
      expect(r.modules.filter((m) => m.includes(heavy))).toEqual([]);
    }
  }, 60_000);

  it("`find <q> --json` loads find alone, and the wire schemas stay unloaded", async () => {
    const r = await traced(["find", "fox", "--json", "--kb", "notes"], d.env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(Object.values(res.resources).map((x) => (x as { title: string }).title)).toEqual(["Fox"]);
    expect(commandModules(r.modules)).toEqual(["/src/commands/find.ts", "/src/commands/index.ts"]);
    expect(r.modules.filter((m) => /\/src\/api\/(?!url\.ts|paths\.ts|version\.ts)/.test(m))).toEqual([]);
    expect(r.modules.filter((m) => /\/node_modules\/(zod|ink|react)\//.test(m) || m.includes("/daemon/"))).toEqual([]);
  }, 60_000);

  it("`kbox --version` loads neither commander nor any command", async () => {
    const r = await traced(["--version"], d.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(r.modules.filter((m) => m.includes("/node_modules/commander/") || m.startsWith("/src/commands/"))).toEqual([]);
  }, 60_000);
});

describe("the lazy command table", () => {
  it("picks the one command argv names, and the whole tree for help, unknown words and completion", () => {
    const names = (argv?: string[]) => commandsFor(argv).map((e) => e.name);
    const all = COMMANDS.map((e) => e.name);
    expect(names(["kb", "list", "--json"])).toEqual(["kb"]);
    expect(names(["-q", "--profile", "work", "find", "x"])).toEqual(["find"]);
    expect(names(["--profile=work", "ask", "why"])).toEqual(["ask"]);
    expect(names(["__complete", "kbs"])).toEqual(["__complete"]);
    for (const argv of [undefined, [], ["--help"], ["help", "kb"], ["fnd", "x"], ["completion", "bash"], ["-V"], ["--", "kb"]]) {
      expect(names(argv)).toEqual(all);
    }
  });

  it("matches the commands it loads: names, aliases, descriptions, hidden, in help order", async () => {
    const program = await buildProgram(new Context(bufferIO({ env: {} }).io));
    const loaded = program.commands.map((c) => ({
      name: c.name(),
      aliases: c.aliases(),
      summary: c.description(),
      hidden: Boolean((c as unknown as { _hidden: boolean })._hidden),
    }));
    expect(loaded).toEqual(
      COMMANDS.map((e) => ({ name: e.name, aliases: [...(e.aliases ?? [])], summary: e.summary, hidden: Boolean(e.hidden) })),
    );
  });

  it("`kbox --help` still lists every visible command", async () => {
    const r = await runCli(["--help"], d.env);
    expect(r.code).toBe(0);
    for (const e of COMMANDS) {
      if (e.hidden) expect(r.stdout).not.toContain(e.name);
      else expect(r.stdout).toMatch(new RegExp(`^  ${e.name}\\b.*`, "m"));
    }
  });

  it("gives each command the same help loaded alone as in the whole tree", async () => {
    for (const e of COMMANDS.filter((c) => !c.hidden)) {
      const alone = await runCli([e.name, "--help"], d.env);
      const whole = await runCli(["help", e.name], d.env);
      expect(alone.code, e.name).toBe(0);
      expect(alone.stdout, e.name).toBe(whole.stdout);
      expect(alone.stdout, e.name).toContain(`Usage: kbox ${e.name}`);
    }
  });

  it("still suggests the nearest command for a mistyped one (exit 2)", async () => {
    const r = await runCli(["fnd", "fox"], d.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown command 'fnd'");
    expect(r.stderr).toContain("(Did you mean find?)");
    const sub = await runCli(["kb", "lst"], d.env);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/Did you mean .*\blist\b/);
  });
});

describe("src/client/routes", () => {
  it("is generated from src/api and up to date (run `npm run gen:routes` after changing routes)", async () => {
    expect(await staleRoutes()).toEqual([]);
  });
});

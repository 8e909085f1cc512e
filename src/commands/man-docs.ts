import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { completionScript, SHELLS } from "../cli/completion.js";
import { Context } from "../cli/context.js";
import { bufferIO } from "../cli/io.js";
import { manPages } from "../cli/man.js";
import { VERSION } from "../client/routes/version.js";
import { buildProgram } from "./index.js";

/** Every generated file (completions/ and man/man1/, from the whole tree of ./index.ts), keyed by path relative to the package root. */
export async function generatedDocs(): Promise<Record<string, string>> {
  // An empty environment: the output must not depend on who runs the generator.
  const ctx = new Context(bufferIO({ env: {} }).io);
  const root = await buildProgram(ctx);
  const names: Record<(typeof SHELLS)[number], string> = { bash: "kbox.bash", zsh: "_kbox", fish: "kbox.fish" };
  const files: Record<string, string> = {};
  for (const shell of SHELLS) files[join("completions", names[shell])] = completionScript(root, shell);
  for (const [name, text] of Object.entries(manPages(root, VERSION))) files[join("man", "man1", name)] = text;
  return files;
}

/** Write the generated files under `dir`, removing stale man pages of commands that are gone. */
export async function writeDocs(dir: string): Promise<string[]> {
  const files = await generatedDocs();
  const manDir = join(dir, "man", "man1");
  mkdirSync(manDir, { recursive: true });
  mkdirSync(join(dir, "completions"), { recursive: true });
  for (const f of readdirSync(manDir)) if (f.endsWith(".1") && !files[join("man", "man1", f)]) rmSync(join(manDir, f));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  return Object.keys(files);
}

/** Files under `dir` that differ from what the generator produces now (missing, changed or stale). */
export async function staleDocs(dir: string): Promise<string[]> {
  const files = await generatedDocs();
  const out: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    let cur: string | undefined;
    try {
      cur = readFileSync(join(dir, rel), "utf8");
    } catch {
      cur = undefined;
    }
    if (cur !== text) out.push(rel);
  }
  let present: string[] = [];
  try {
    present = readdirSync(join(dir, "man", "man1"));
  } catch {
    present = [];
  }
  for (const f of present) if (f.endsWith(".1") && !files[join("man", "man1", f)]) out.push(join("man", "man1", f));
  return out;
}

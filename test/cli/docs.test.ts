import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { walkTree } from "../../src/cli/completion-tree.js";
import { Context } from "../../src/cli/context.js";
import { bufferIO } from "../../src/cli/io.js";
import { buildProgram } from "../../src/commands/index.js";
import { generatedDocs, staleDocs, writeDocs } from "../../src/commands/man-docs.js";
import { runCli } from "../helpers/daemon.js";

const root = join(import.meta.dirname, "../..");
const tmp = mkdtempSync(join(tmpdir(), "kbox-docs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

describe("generated completions and man pages", () => {
  it("are committed and up to date (run `npm run gen:docs` after changing commands)", async () => {
    expect(await staleDocs(root)).toEqual([]);
  });

  it("regenerate identically into a temp dir", async () => {
    await writeDocs(tmp);
    for (const [rel, text] of Object.entries(await generatedDocs())) expect(readFileSync(join(tmp, rel), "utf8")).toBe(text);
    expect(await staleDocs(tmp)).toEqual([]);
  });

  it("match what `kbox completion <shell>` prints", async () => {
    for (const [shell, file] of [
      ["bash", "kbox.bash"],
      ["zsh", "_kbox"],
      ["fish", "kbox.fish"],
    ]) {
      const r = await runCli(["completion", shell], {});
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(root, "completions", file), "utf8"));
    }
    const bad = await runCli(["completion", "tcsh"], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Allowed choices are bash, zsh, fish");
  });

  it("cover every visible command, with EXIT CODES and ENVIRONMENT sections", async () => {
    const program = await buildProgram(new Context(bufferIO({ env: {} }).io));
    const man = readFileSync(join(root, "man/man1/kbox.1"), "utf8");
    const bash = readFileSync(join(root, "completions/kbox.bash"), "utf8");
    for (const c of walkTree(program).slice(1)) {
      expect(man).toContain(`.SS kbox ${c.path.join(" ")}\n`.replace(/-/g, "\\-"));
      expect(bash).toContain(`    '${c.path.join(" ")}')`);
    }
    for (const s of ["EXIT CODES", "ENVIRONMENT", "KBOX_PROFILE", "KBOX_API_KEY", "KBOX_URL"]) expect(man).toContain(s);
    expect(bash).not.toContain("__complete'"); // hidden command stays hidden
  });

  it("give every command an example in its --help", async () => {
    const program = await buildProgram(new Context(bufferIO({ env: {} }).io));
    const missing = walkTree(program)
      .slice(1)
      .filter((c) => !/Examples?:/.test(c.extraHelp))
      .map((c) => c.path.join(" "));
    expect(missing).toEqual([]);
  });

  it("load in bash and complete commands, choices and profiles", () => {
    const out = execFileSync("bash", ["-c", "source completions/kbox.bash && complete -p kbox"], { cwd: root, encoding: "utf8" });
    expect(out.trim()).toBe("complete -F _kbox kbox");
    // A `kbox` on PATH that answers __complete like the real one, so the script's dynamic part runs.
    const bin = join(tmp, "bin");
    execFileSync("mkdir", ["-p", bin]);
    writeFileSync(
      join(bin, "kbox"),
      '#!/bin/sh\n[ "$1 $2" = "__complete profiles" ] && printf "local\\nwork\\n"\n[ "$1 $2" = "__complete kbs" ] && printf "notes\\nwiki\\n"\nexit 0\n',
    );
    chmodSync(join(bin, "kbox"), 0o755);
    const script = [
      "source completions/kbox.bash",
      't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _kbox; echo "${COMPREPLY[*]}"; }',
      "t kbox pro",
      "t kbox profile ''",
      "t kbox kb ls --j",
      "t kbox completion ''",
      "t kbox --profile w",
      "t kbox kb use n",
      "t kbox resource list --kb ''",
    ].join("\n");
    const lines = execFileSync("bash", ["-c", script], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    }).split("\n");
    expect(lines.slice(0, 7)).toEqual([
      "profile",
      "list add use show remove ls rm",
      "--json",
      "bash zsh fish",
      "work",
      "notes",
      "notes wiki",
    ]);
  });

  it.runIf(has("man"))("render with man", () => {
    const r = spawnSync("man", ["-l", "man/man1/kbox.1"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, MANPAGER: "cat", PAGER: "cat", MANWIDTH: "80" },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("EXIT CODES");
    expect(r.stdout).toMatch(/kbox auth login/);
    expect(r.stderr).not.toMatch(/warning|error/i);
    const sub = spawnSync("man", ["-l", "man/man1/kbox-profile.1"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, MANPAGER: "cat", PAGER: "cat" },
    });
    expect(sub.status).toBe(0);
    expect(sub.stdout).toContain("kbox profile add");
  });

  it.runIf(has("zsh"))("zsh script parses", () => {
    expect(spawnSync("zsh", ["-n", "completions/_kbox"], { cwd: root }).status).toBe(0);
  });
  it.runIf(has("fish"))("fish script parses", () => {
    expect(spawnSync("fish", ["-n", "completions/kbox.fish"], { cwd: root }).status).toBe(0);
  });
});

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Context } from "../../src/cli/context.js";
import { bufferIO } from "../../src/cli/io.js";
import { buildProgram } from "../../src/commands/index.js";
import { removeHome, tempHome } from "../helpers/daemon.js";

// The CLI as a shell script uses it: real child processes, a fresh KBOX_HOME, output parsed with jq
// (or node when jq is missing), exit codes checked by the shell.
const root = join(import.meta.dirname, "../..");
const kbox = `${process.execPath} --import tsx ${join(root, "bin/kbox.ts")}`;
const jq =
  spawnSync("sh", ["-c", "command -v jq"]).status === 0 ? "jq -r" : `${process.execPath} ${join(root, "test/helpers/jq.mjs")}`;
const commands = new Set((await buildProgram(new Context(bufferIO({ env: {} }).io))).commands.map((c) => c.name()));
let home: string;

function sh(script: string, timeout = 120_000) {
  const r = spawnSync("bash", ["-euo", "pipefail", "-c", `kbox() { ${kbox} "$@"; }\n${script}`], {
    cwd: root,
    env: { ...process.env, KBOX_HOME: home, NO_COLOR: "1", KBOX_PROFILE: "", KBOX_KB: "", KBOX_URL: "" },
    encoding: "utf8",
    timeout,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  home = tempHome();
});
afterAll(() => {
  sh("kbox daemon stop || true", 30_000);
  removeHome(home);
});

describe("kbox in a shell script", () => {
  it("creates a KB, adds resources, lists and finds with --json and parses the output", { timeout: 180_000 }, () => {
    const r = sh(`
      kbox kb create script-kb --title "Script KB" --use --quiet > /dev/null
      kbox resource create --title "Alpha" --text "The quick brown fox jumps" --quiet >/dev/null
      kbox resource create --title "Beta" --text "A lazy dog sleeps" --quiet >/dev/null
      n=$(kbox resource list --json | ${jq} '.resources | length')
      test "$n" = 2
      kbox resource list --json | ${jq} '.resources[].title' | sort
      kbox kb list --json | ${jq} '.kbs[0].slug'
      ${commands.has("find") ? `kbox find fox --json > find.json.tmp; ${jq} 'type' < find.json.tmp; rm -f find.json.tmp` : "echo object"}
    `);
    expect(r.stderr).not.toMatch(/Error|kbox:/);
    expect(r.code, r.stderr).toBe(0);
    // No status lines leak to stdout, no colour when piped.
    expect(r.stdout).toBe("Alpha\nBeta\nscript-kb\nobject\n");
  });

  it.runIf(commands.has("add"))("adds a folder with --wait and answers with --json", { timeout: 180_000 }, () => {
    const r = sh(`
      d=$(mktemp -d); printf 'kbox keeps notes on Fridays.\\n' > "$d/a.txt"; printf 'Second file.\\n' > "$d/b.txt"
      kbox kb create add-kb --quiet > /dev/null
      kbox add "$d" --kb add-kb --wait --quiet > /dev/null
      kbox resource list --kb add-kb --json | ${jq} '.resources | length'
      ${commands.has("ask") ? `kbox ask "When are notes kept?" --kb add-kb --json | head -c 1` : "printf '{'"}
      rm -rf "$d"
    `);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^2\n[{[]/);
  });

  it("exits with the documented codes: 2 for usage, 1 for a missing KB, 3 when the daemon is gone", { timeout: 180_000 }, () => {
    const r = sh(`
      set +e
      kbox kb lsit 2>err.tmp; echo "typo=$?"; grep -c "Did you mean" err.tmp; rm -f err.tmp
      kbox kb show no-such-kb 2>/dev/null; echo "missing=$?"
      kbox kb delete script-kb 2>/dev/null </dev/null; echo "noyes=$?"
      kbox daemon stop --quiet; kbox daemon status >/dev/null 2>&1; echo "down=$?"
    `);
    expect(r.stdout).toBe("typo=2\n1\nmissing=1\nnoyes=2\ndown=3\n");
  });
});

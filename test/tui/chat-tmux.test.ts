import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

// The chat TUI in a real terminal: tmux runs `kbox chat` in an 80x24 pane; we type and read the screen.
const hasTmux = (() => {
  try {
    execFileSync("tmux", ["-V"]);
    return true;
  } catch {
    return false;
  }
})();
const session = `kbox-chat-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", session, ...args], { encoding: "utf8" });
let d: TestDaemon;

beforeAll(async () => {
  if (!hasTmux) return;
  d = await startTestDaemon({ env: OFFLINE });
  await seedKb(d, "term");
});
afterAll(async () => {
  if (hasTmux) {
    try {
      tmux("kill-server");
    } catch {
      /* already gone */
    }
  }
  await d?.stop();
});

async function screenUntil(pred: (s: string) => boolean, ms = 20_000): Promise<string> {
  const end = Date.now() + ms;
  let s = "";
  while (Date.now() < end) {
    s = tmux("capture-pane", "-p", "-t", session);
    if (pred(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; screen:\n${s}`);
}

describe.skipIf(!hasTmux)("kbox chat in tmux", () => {
  it("asks, shows sources, takes a follow-up question, and quits", async () => {
    const bin = join(import.meta.dirname, "../../bin/kbox.ts");
    // ink draws only a final frame when CI is set (as it is under .ci/run); a person's terminal has no CI.
    const cmd = `env -u CI KBOX_HOME=${d.home} NO_COLOR=1 ${process.execPath} --import tsx ${bin} chat --kb term --features keyword`;
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", "-c", join(import.meta.dirname, "../.."), cmd);
    await screenUntil((s) => s.includes("ask>"));
    tmux("send-keys", "-t", session, "-l", "Where is the office located?");
    tmux("send-keys", "-t", session, "Enter");
    let s = await screenUntil((x) => x.includes("Sources"));
    expect(s).toMatch(/Lisbon.*\[1\]/);
    expect(s).toContain("[1] Office guide");
    tmux("send-keys", "-t", session, "-l", "When does it open?");
    tmux("send-keys", "-t", session, "Enter");
    s = await screenUntil((x) => x.includes("› When does it open?") && /8:30 every\s+morning\.\[1\]/.test(x));
    expect(s).toContain("searched: When does it open office");
    expect(s.split("\n").every((l) => l.length <= 80)).toBe(true);
    tmux("send-keys", "-t", session, "C-c");
    await screenUntil((x) => !x.includes("ask>"), 10_000).catch(() => undefined);
  });
});

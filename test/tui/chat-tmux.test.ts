import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

// The chat TUI in a real terminal: tmux runs `kbox chat` in an 80x24 pane; we type and read the screen
// (and, at the end, everything the terminal scrolled away). tmux is in .ci/apt-packages.
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
  await seedKb(d, "space", [
    { slug: "moon", title: "The Moon", body: "The Moon orbits the Earth once every 27 days. Its surface is covered in craters." },
    {
      slug: "mars",
      title: "Mars",
      body: "Mars has two small moons, Phobos and Deimos. A day on Mars lasts 24 hours and 37 minutes.",
    },
  ]);
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

const screen = () => tmux("capture-pane", "-p", "-t", session);
/** The whole terminal: what scrolled away and what is on screen. */
const scrollback = () => tmux("capture-pane", "-p", "-S", "-", "-t", session);

async function screenUntil(pred: (s: string) => boolean, ms = 20_000): Promise<string> {
  const end = Date.now() + ms;
  let s = "";
  while (Date.now() < end) {
    s = screen();
    if (pred(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; screen:\n${s}`);
}

function send(text: string) {
  tmux("send-keys", "-t", session, "-l", text);
  tmux("send-keys", "-t", session, "Enter");
}

/** The screen is whole: nothing wider than the pane, the input and status lines last, nothing drawn twice. */
function expectClean(s: string, question?: string) {
  const lines = s.replace(/\n+$/, "").split("\n");
  expect(lines.every((l) => l.length <= 80)).toBe(true);
  expect(lines.at(-2)).toMatch(/^ask>/);
  expect(s.match(/^ask>/gm)).toHaveLength(1);
  if (question) expect(s.split("\n").filter((l) => l === `› ${question}`)).toHaveLength(1);
}

interface Step {
  q: string;
  answer: RegExp;
  source: string;
  searched?: RegExp;
}

// Eight questions over two boxes: self-contained ones searched as asked, follow-ups rephrased.
const TERM: Step[] = [
  { q: "Where is the office located?", answer: /Lisbon, on Rua Augusta 120\.\[1\]/, source: "[1] Office guide — " },
  { q: "When does it open?", answer: /8:30 every\s+morning\.\[1\]/, source: "[1] Office guide — ", searched: /office/ },
  { q: "How many desks are in the building?", answer: /42 desks/, source: "[1] Office guide — " },
  { q: "How long do cats sleep?", answer: /between 12 and 16\s+hours/, source: "[1] Cat care — " },
  { q: "Why do they purr?", answer: /purr because it calms them/, source: "[1] Cat care — ", searched: /cats/ },
  { q: "Who writes the release notes?", answer: /Maria Lopez/, source: "[1] Release planning — " },
];
const SPACE: Step[] = [
  { q: "What orbits the Earth?", answer: /Moon orbits the Earth once every 27\s+days/, source: "[1] The Moon — " },
  { q: "How many moons does Mars have?", answer: /two small\s+moons/, source: "[1] Mars — " },
];

async function askStep(st: Step) {
  send(st.q);
  const s = await screenUntil(
    (x) => x.includes(`› ${st.q}`) && st.answer.test(x) && x.includes(st.source) && !x.includes("answering…"),
  );
  expectClean(s, st.q);
  const turn = s.split(`› ${st.q}`)[1];
  expect(turn).toMatch(/\nSources\n/);
  if (st.searched) expect(turn).toMatch(new RegExp(`^\\n  searched: .*${st.searched.source}`));
  else expect(turn).not.toMatch(/^\n\s+searched:/);
}

describe.skipIf(!hasTmux)("kbox chat in tmux (80x24)", () => {
  it("asks 8 questions with sources and follow-ups over two boxes, and scrolls cleanly", async () => {
    const bin = join(import.meta.dirname, "../../bin/kbox.ts");
    // ink draws only a final frame when CI is set (as it is under .ci/run); a person's terminal has no CI.
    const cmd = `env -u CI KBOX_HOME=${d.home} NO_COLOR=1 ${process.execPath} --import tsx ${bin} chat --kb term --features keyword`;
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", "-c", join(import.meta.dirname, "../.."), cmd);
    tmux("set-option", "-t", session, "history-limit", "5000");
    expectClean(await screenUntil((s) => s.includes("ask>")));
    for (const st of TERM) await askStep(st);

    send("/kb nowhere");
    expectClean(await screenUntil((s) => /no knowledge box "nowhere"; there are: .*space/.test(s)));
    send("/nope");
    expectClean(await screenUntil((s) => s.includes("unknown command /nope")));
    send("/kb space");
    expectClean(await screenUntil((s) => s.includes("switched to space")));
    for (const st of SPACE) await askStep(st);

    // Everything the terminal scrolled: each question once, in order, and one input line (the live
    // part was redrawn in place, never left behind in the scrollback).
    const all = scrollback();
    const asked = all.split("\n").filter((l) => l.startsWith("› "));
    expect(asked).toEqual([...TERM, ...SPACE].map((st) => `› ${st.q}`));
    expect(all.match(/^ask>/gm)).toHaveLength(1);
    expect(all).not.toContain("answering…");
    expect(all.split("\n").every((l) => l.length <= 80)).toBe(true);
    tmux("send-keys", "-t", session, "C-c");
    await screenUntil((x) => !x.includes("ask>"), 10_000).catch(() => undefined);
  }, 180_000);
});

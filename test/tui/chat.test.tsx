import { render } from "ink-testing-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Context } from "../../src/cli/context.js";
import { bufferIO } from "../../src/cli/io.js";
import { chatSession } from "../../src/commands/chat.js";
import { ChatApp } from "../../src/tui/chat-app.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  await seedKb(d, "tui");
  await seedKb(d, "other", [{ slug: "moon", title: "Moon", body: "The moon orbits the earth every 27 days." }]);
});
afterAll(async () => d?.stop());

async function until(frame: () => string | undefined, pred: (f: string) => boolean, ms = 10_000): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const f = frame() ?? "";
    if (pred(f)) return f;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out; last frame:\n${frame()}`);
}

/** The session is idle: no answer streaming. */
const idle = (x: string) => !x.includes("answering…");

async function type(stdin: { write: (s: string) => void }, text: string) {
  for (const ch of text) stdin.write(ch);
  await new Promise((r) => setTimeout(r, 20));
  stdin.write("\r");
}

describe("kbox chat TUI (ink-testing-library)", () => {
  it("streams an answer with sources, follows up with rephrasing, filters, switches KB and copies", async () => {
    const b = bufferIO({ env: d.env });
    const session = await chatSession(new Context(b.io), { kb: "tui", features: "keyword" });
    const app = render(<ChatApp session={session} />);
    expect(app.lastFrame()).toContain("kb tui");
    await type(app.stdin, "Where is the office located?");
    let f = await until(app.lastFrame, (x) => x.includes("Sources"));
    expect(f).toContain("› Where is the office located?");
    expect(f).toMatch(/Lisbon[^\n]*\[1\]/);
    expect(f).toMatch(/\[1\] Office guide — /);
    await type(app.stdin, "When does it open?");
    f = await until(app.lastFrame, (x) => x.includes("› When does it open?") && x.includes("every morning.[1]\n") && idle(x));
    expect(f).toMatch(/searched: When does it open office/);
    await type(app.stdin, "/copy");
    await until(app.lastFrame, (x) => x.includes("copied"));
    expect(b.stdout()).toContain(
      `\x1b]52;c;${Buffer.from("The office is located in Lisbon, on Rua Augusta 120.[1] It opens at 8:30 every morning.[1]").toString("base64")}`,
    );
    await type(app.stdin, "/filter topic/planning");
    await until(app.lastFrame, (x) => x.includes("label topic/planning"));
    await type(app.stdin, "Where is the office located?");
    f = await until(app.lastFrame, (x) => (x.match(/› Where is the office/g) ?? []).length === 2 && idle(x));
    expect(f.split("› Where is the office located?").at(-1)).not.toContain("Lisbon");
    await type(app.stdin, "/kb nowhere");
    f = await until(app.lastFrame, (x) => x.includes('no knowledge box "nowhere"'));
    expect(f).toMatch(/there are: .*other/);
    await type(app.stdin, "/frobnicate");
    f = await until(app.lastFrame, (x) => x.includes("unknown command /frobnicate"));
    await type(app.stdin, "/kb other");
    f = await until(app.lastFrame, (x) => x.includes("switched to other"));
    expect(f).toMatch(/other · label topic\/planning · kb other/);
    await type(app.stdin, "/filter off");
    await type(app.stdin, "What orbits the earth?");
    f = await until(app.lastFrame, (x) => x.includes("27 days") && x.includes("Sources"));
    expect(f).toContain("[1] Moon");
    app.unmount();
  });

  it("takes a pasted line, newline included, as a question", async () => {
    const session = await chatSession(new Context(bufferIO({ env: d.env }).io), { kb: "tui", features: "keyword" });
    const app = render(<ChatApp session={session} />);
    app.stdin.write("Where is the office located?\r"); // one chunk, as a paste or a fast pty delivers it
    const f = await until(app.lastFrame, (x) => x.includes("Sources"));
    expect(f).toContain("› Where is the office located?");
    expect(f).toMatch(/Lisbon[^\n]*\[1\]/);
    app.unmount();
  });

  it("keeps a self-contained question as asked after an unrelated one, and every line within the width (ink-testing-library: 100 columns)", async () => {
    const session = await chatSession(new Context(bufferIO({ env: d.env }).io), { kb: "tui", features: "keyword" });
    const app = render(<ChatApp session={session} />);
    await type(app.stdin, "Why do cats purr?");
    await until(app.lastFrame, (x) => x.includes("Sources") && idle(x));
    await type(app.stdin, "When does the team ship a new release?");
    const f = await until(app.lastFrame, (x) => x.includes("Friday") && idle(x));
    expect(f.split("› When does the team ship")[1]).not.toContain("searched:");
    expect(f.split("\n").every((l) => l.length <= 100)).toBe(true);
    app.unmount();
  });
});

import { describe, expect, it } from "vitest";
import { Context } from "../../src/cli/context.js";
import { bufferIO } from "../../src/cli/io.js";
import { formatCount, formatDuration, progress, progressLine } from "../../src/cli/progress.js";

function setup(tty: boolean, env: NodeJS.ProcessEnv = {}) {
  const b = bufferIO({ tty, env: { KBOX_HOME: "/nonexistent-kbox-home", ...env } });
  let now = 0;
  return { b, ctx: new Context(b.io), clock: { now: () => now, advance: (ms: number) => (now += ms) } };
}

describe("progress", () => {
  it("draws a bar with counts, rate and ETA on a TTY, redrawn on stderr only", () => {
    const { b, ctx, clock } = setup(true);
    const p = progress(ctx, { label: "files", total: 10, now: clock.now });
    clock.advance(1000);
    p.tick(2);
    clock.advance(1000);
    p.tick(2);
    const err = b.stderr();
    expect(err).toContain("\r\x1b[2K");
    expect(err).toMatch(/\[#+-+\]\s+40% 4\/10 files\s+2 files\/s\s+eta 3s/);
    expect(err).toContain("\x1b[36m"); // colour on a TTY
    p.log("failed: a.pdf");
    p.done("added 10 files");
    expect(b.stderr()).toContain("failed: a.pdf\n");
    expect(b.stderr().endsWith("\r\x1b[2Kadded 10 files\n")).toBe(true);
    expect(b.stdout()).toBe("");
  });

  it("honours NO_COLOR on a TTY and throttles redraws", () => {
    const { b, ctx, clock } = setup(true, { NO_COLOR: "1" });
    const p = progress(ctx, { label: "files", total: 100, now: clock.now });
    const before = b.stderr().length;
    for (let i = 0; i < 50; i++) p.tick(); // same instant: throttled
    expect(b.stderr().length).toBe(before);
    clock.advance(200);
    p.tick();
    expect(b.stderr()).not.toContain("\x1b[36m");
    expect(b.stderr()).toContain("51/100 files");
  });

  it("prints occasional plain lines when piped, and nothing with --quiet", () => {
    const { b, ctx, clock } = setup(false);
    const p = progress(ctx, { label: "files", total: 10, now: clock.now });
    p.tick();
    expect(b.stderr()).toBe(""); // nothing before the first interval
    clock.advance(2500);
    p.tick(4);
    expect(b.stderr()).toBe("files: 5/10 files (50%), 2 files/s, eta 3s\n");
    p.done("done");
    expect(b.stderr()).not.toContain("\r");
    expect(b.stderr().endsWith("done\n")).toBe(true);

    const q = setup(true);
    const pq = progress(q.ctx, { label: "files", quiet: true, now: q.clock.now });
    q.clock.advance(5000);
    pq.tick(3);
    pq.log("x");
    pq.done("finished");
    expect(q.b.stderr()).toBe("");
  });

  it("formats bytes, durations and unknown totals", () => {
    expect(formatCount(1536, true)).toBe("1.5 KiB");
    expect(formatCount(12)).toBe("12");
    expect(formatDuration(65)).toBe("1m05s");
    expect(formatDuration(3720)).toBe("1h02m");
    expect(progressLine({ label: "bytes", bytes: true }, 2 * 1024 * 1024, undefined, 2, true)).toBe("2.0 MiB  1.0 MiB/s  2s");
    expect(progressLine({ label: "files" }, 3, undefined, 1, false)).toBe("files: 3 files, 3 files/s");
  });
});

import { describe, expect, it } from "vitest";
import { Settler } from "../../../daemon/store/settle.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Settler whose runs are counted. */
function counted(settleMs: number, retentionMs: number): { s: Settler; runs: () => number } {
  let n = 0;
  const s = new Settler(async () => void n++, settleMs, retentionMs);
  return { s, runs: () => n };
}

/** Write every `everyMs` for `forMs`, then close the settler. */
async function writeFor(s: Settler, forMs: number, everyMs: number): Promise<void> {
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    s.wrote();
    await sleep(everyMs);
  }
  s.close();
}

describe("Settler (compaction and cleanup of old versions)", () => {
  it("runs when writes settle, and again once the last writes are past the retention", async () => {
    const runs: number[] = [];
    const t0 = Date.now();
    const s = new Settler(async () => void runs.push(Date.now() - t0), 50, 200);
    for (let i = 0; i < 5; i++) {
      s.wrote();
      await sleep(10);
    }
    expect(runs).toEqual([]); // writes still coming: nothing yet
    await sleep(120);
    expect(runs.length).toBe(1); // settled
    await sleep(300);
    expect(runs.length).toBe(2); // the last versions passed the retention: cleaned again
    await sleep(300);
    expect(runs.length).toBe(2); // and then nothing more to do
    s.close();
  });

  it("under writes that never stop, still runs about once a retention period", async () => {
    const { s, runs } = counted(50, 100);
    // About ten retention periods: a loaded machine's late timers (2 runs in 550 ms once, when this wrote
    // for five) still leave three or more.
    await writeFor(s, 1100, 10);
    expect(runs()).toBeGreaterThanOrEqual(3);
    expect(runs()).toBeLessThanOrEqual(12);
  });

  it("waits through quiet spells while more writes are coming, then runs once they are done", async () => {
    let busy = true;
    const { s, runs } = counted(50, 2000);
    s.busy = () => busy;
    // Batches with pauses longer than the settle time between them (PDFs being extracted).
    for (let batch = 0; batch < 3; batch++) {
      s.wrote();
      await sleep(120);
    }
    expect(runs()).toBe(0); // no run at each pause
    busy = false;
    await sleep(150);
    expect(runs()).toBe(1); // the run is over: settled
    s.close();
  });

  it("still runs once a retention period when the writer stays busy", async () => {
    const { s, runs } = counted(30, 200);
    s.busy = () => true;
    await writeFor(s, 700, 80); // pauses longer than the settle time, but the writer is busy
    expect(runs()).toBeGreaterThanOrEqual(2);
    expect(runs()).toBeLessThanOrEqual(4);
  });
});

import { describe, expect, it } from "vitest";
import { Settler } from "../../../daemon/store/settle.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    let runs = 0;
    const s = new Settler(
      async () => {
        runs++;
      },
      50,
      100,
    );
    const until = Date.now() + 550;
    while (Date.now() < until) {
      s.wrote();
      await sleep(10);
    }
    s.close();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(7);
  });

  it("waits through quiet spells while more writes are coming, then runs once they are done", async () => {
    let runs = 0;
    let busy = true;
    const s = new Settler(
      async () => {
        runs++;
      },
      50,
      2000,
    );
    s.busy = () => busy;
    // Batches with pauses longer than the settle time between them (PDFs being extracted).
    for (let batch = 0; batch < 3; batch++) {
      s.wrote();
      await sleep(120);
    }
    expect(runs).toBe(0); // no run at each pause
    busy = false;
    await sleep(150);
    expect(runs).toBe(1); // the run is over: settled
    s.close();
  });

  it("still runs once a retention period when the writer stays busy", async () => {
    let runs = 0;
    const s = new Settler(
      async () => {
        runs++;
      },
      30,
      200,
    );
    s.busy = () => true;
    const until = Date.now() + 700;
    while (Date.now() < until) {
      s.wrote();
      await sleep(80);
    }
    s.close();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(4);
  });
});

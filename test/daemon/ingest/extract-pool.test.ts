import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExtractPool } from "../../../daemon/ingest/extract-pool.js";
import { processField } from "../../../daemon/ingest/process-field.js";
import type { FieldDoc } from "../../../daemon/store/index.js";
import { buildPdf } from "../../fixtures/documents.js";

const dir = mkdtempSync(join(tmpdir(), "kbox-pool-"));
const noBlobs = { path: () => "" };
const text = (body: string, format = "PLAIN"): FieldDoc =>
  ({ type: "text", id: "t", value: { body, format } }) as unknown as FieldDoc;
const withoutDates = (o: unknown) => JSON.parse(JSON.stringify(o).replace(/"(last_extract|created)":"[^"]+"/g, '"$1":"-"'));
const pools: ExtractPool[] = [];
const pool = (opts: ConstructorParameters<typeof ExtractPool>[0]) => {
  const p = new ExtractPool(opts);
  pools.push(p);
  return p;
};
afterAll(() => Promise.all(pools.map((p) => p.close())));

describe("ExtractPool", () => {
  it("gives the outcome processField gives in this thread, for text and for a PDF file", async () => {
    const p = pool({ size: 2 });
    const pdf = join(dir, "two.pdf");
    await buildPdf(pdf, ["First page text. It has two sentences.", "Second page text."]);
    const file = { type: "file", id: "f", blob: "b", value: { file: { filename: "two.pdf" } } } as unknown as FieldDoc;
    const md = text("# Title\n\nSome *markdown* text.\n\nA second paragraph.", "MARKDOWN");
    const [a, b] = await Promise.all([p.run(md, noBlobs), p.run(file, { path: () => pdf })]);
    expect(withoutDates(a)).toEqual(withoutDates(await processField(md, noBlobs)));
    expect(withoutDates(b)).toEqual(withoutDates(await processField(file, { path: () => pdf })));
    expect(b.units[0].paragraphs.map((x) => x.page_number)).toEqual([1, 2]);
  }, 60_000);

  it("detects languages in the daemon, as processField does, for conversations and given languages too", async () => {
    const p = pool({ size: 1 });
    const fr = text("Le chat dort sur le canapé depuis ce matin. Il fait beau dehors et les oiseaux chantent dans le jardin.");
    const convo = {
      type: "conversation",
      id: "c",
      value: {
        messages: [
          { ident: "m1", content: { text: "Good morning, how are you doing today? I hope the weather is nice where you are." } },
          { ident: "m2", content: { text: "Muy bien, gracias. Hoy hace mucho sol en Madrid y vamos a la playa por la tarde." } },
          { ident: "m3", content: { text: "That sounds lovely, enjoy the beach and send me some pictures of the sea later." } },
        ],
      },
    } as unknown as FieldDoc;
    for (const doc of [fr, convo]) {
      const got = await p.run(doc, noBlobs);
      expect(withoutDates(got)).toEqual(withoutDates(await processField(doc, noBlobs)));
    }
    const c = await p.run(convo, noBlobs);
    expect(c.languages).toEqual(["en", "es"]);
    expect(c.units.map((u) => u.lang)).toEqual(["en", "es", "en"]);
    expect((await p.run(fr, noBlobs)).language).toBe("fr");
  }, 60_000);

  it("replaces workers after their quota of jobs, and loses none", async () => {
    const p = pool({ size: 1, jobsPerWorker: 2 });
    const out = await Promise.all(Array.from({ length: 5 }, (_, i) => p.run(text(`Document number ${i}.`), noBlobs)));
    expect(out.map((o) => o.units[0].paragraphs[0].text)).toEqual([0, 1, 2, 3, 4].map((i) => `Document number ${i}.`));
  }, 60_000);

  it("turns a document that exhausts a worker's heap into an ERROR and goes on with a fresh worker", async () => {
    const p = pool({ size: 1, maxHeapMb: 64 });
    const huge = text("word ".repeat(40_000_000)); // 200 MB of text: more than the worker may hold
    // The one worker holds both jobs (the next is sent ahead): that one goes on to the fresh worker.
    const [failed, ahead] = await Promise.all([p.run(huge, noBlobs), p.run(text("Sent ahead."), noBlobs)]);
    expect(failed.status).toBe("ERROR");
    expect(failed.error?.body).toMatch(/more than 64 MB of memory/);
    expect(ahead.status).toBe("PROCESSED");
    expect(ahead.units[0].paragraphs[0].text).toBe("Sent ahead.");
    const next = await p.run(text("Still alive."), noBlobs);
    expect(next.status).toBe("PROCESSED");
  }, 120_000);

  it("answers a job cancelled while it waits behind another in the worker without running it", async () => {
    const p = pool({ size: 1 });
    const ac = new AbortController();
    const long = p.run(text("Many words in a long text. ".repeat(400_000)), noBlobs);
    const waiting = p.run(text("Never run."), noBlobs, ac.signal);
    ac.abort(new Error("cancelled while waiting"));
    await expect(waiting).rejects.toThrow("cancelled while waiting");
    expect((await long).status).toBe("PROCESSED");
    expect((await p.run(text("And the worker goes on."), noBlobs)).status).toBe("PROCESSED");
  }, 60_000);

  it("refuses work once aborted or closed", async () => {
    const p = pool({ size: 1 });
    const ac = new AbortController();
    ac.abort(new Error("stopping"));
    await expect(p.run(text("x"), noBlobs, ac.signal)).rejects.toThrow("stopping");
    await p.close();
    await expect(p.run(text("x"), noBlobs)).rejects.toThrow(/closed/);
  });
});

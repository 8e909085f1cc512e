import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPdf } from "../fixtures/documents.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

// The field threads (daemon/ingest/field-threads.ts) extract small plain fields, detect languages and
// read entities off the daemon's thread, and finish what the worker processes prepared. A box
// ingested with them must come out exactly as one ingested on the daemon's thread alone.

const NOTE = "# Field threads\n\nMarie Curie met Albert Einstein in Paris in 1921.\n\nThey talked about radium.\n";
const TEXT = "Ada Lovelace worked with Charles Babbage in London. La casa de los abuelos está en Madrid.";

interface Box {
  d: TestDaemon;
  kbid: string;
  rids: Record<string, string>;
}

const boxes: Box[] = [];
let pdf: Buffer;

async function ingest(threads: string): Promise<Box> {
  const d = await startTestDaemon({ env: { ...OFFLINE, KBOX_FIELD_THREADS: threads } });
  const call = (method: string, path: string, body?: unknown) => rawCall(d.client, method, path, body);
  const kbid = ((await call("POST", "/api/v1/kbs", { slug: `threads-${threads}` })).json as { uuid: string }).uuid;
  const groups = await call("POST", `/api/v1/kb/${kbid}/entitiesgroups`, {
    group: "ELEMENTS",
    title: "Elements",
    entities: { radium: { value: "radium" } },
  });
  expect(groups.status).toBe(200);
  const file = (filename: string, content_type: string, bytes: Buffer) => ({
    file: { filename, content_type, payload: bytes.toString("base64") },
  });
  const rids: Record<string, string> = {};
  const make = async (slug: string, body: Record<string, unknown>) => {
    const r = await call("POST", `/api/v1/kb/${kbid}/resources`, { slug, ...body });
    expect(r.status).toBe(201);
    rids[slug] = (r.json as { uuid: string }).uuid;
  };
  await make("note", { files: { note: file("note.md", "text/markdown", Buffer.from(NOTE)) } });
  await make("text", { title: "Grace Hopper in Philadelphia", texts: { body: { body: TEXT, format: "PLAIN" } } });
  await make("pdf", { files: { doc: file("doc.pdf", "application/pdf", pdf) } });
  await d.daemon.services.processing.idle();
  const box = { d, kbid, rids };
  boxes.push(box);
  return box;
}

/** What ingestion made of a resource: statuses, languages, titles, paragraphs and every field's extracted metadata. */
async function outcome(b: Box, slug: string) {
  const r = await rawCall(
    b.d.client,
    "GET",
    `/api/v1/kb/${b.kbid}/resource/${b.rids[slug]}?show=basic&show=extracted&show=relations&extracted=metadata&extracted=text`,
  );
  const res = r.json as Record<string, any>;
  const fields = Object.values(res.data ?? {}).flatMap((byId) => Object.values(byId as Record<string, any>));
  const strip = (m: Record<string, any> | undefined) => {
    const { last_extract: _t, ...rest } = m ?? {};
    return rest;
  };
  const out = {
    status: res.metadata?.status,
    language: res.metadata?.language,
    languages: [...(res.metadata?.languages ?? [])].sort(),
    title: res.title,
    relations: (res.relations ?? []).length,
    fields: fields.map((f) => ({ text: f.extracted?.text?.text, metadata: strip(f.extracted?.metadata?.metadata) })),
  };
  // The two boxes' resources have their own ids: compared without them.
  return JSON.parse(JSON.stringify(out).replaceAll(b.rids[slug], "RID")) as typeof out;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "kbox-threads-"));
  await buildPdf(join(dir, "doc.pdf"), ["Grace Hopper wrote the first compiler in Philadelphia on Monday."]);
  pdf = readFileSync(join(dir, "doc.pdf"));
}, 60_000);
afterAll(async () => {
  for (const b of boxes) await b.d.stop();
});

describe("field threads", () => {
  it("ingest small plain fields and finish worker-process fields exactly as the daemon's thread does", async () => {
    const [on, off] = [await ingest("1"), await ingest("0")];
    // Every field went through the thread in one box (titles, the note, the text, the PDF's finish), none in the other.
    expect(on.d.daemon.services.processing.fieldAnalyses()).toEqual({ threads: 5, here: 0 });
    expect(off.d.daemon.services.processing.fieldAnalyses()).toEqual({ threads: 0, here: 5 });
    for (const slug of ["note", "text", "pdf"]) {
      const [a, b] = [await outcome(on, slug), await outcome(off, slug)];
      expect(a).toEqual(b);
      expect(a.status).toBe("PROCESSED");
    }
    const note = await outcome(on, "note");
    expect(note.title).toBe("Field threads");
    expect(note.language).toBe("en");
    expect(note.fields[0].metadata.ner).toMatchObject({ "Marie Curie": "PERSON", Paris: "LOC", radium: "ELEMENTS" });
    const text = await outcome(on, "text");
    expect(text.fields.map((f) => f.metadata.ner).find((n) => n?.["Ada Lovelace"])).toMatchObject({ London: "LOC" });
    const pdfOut = await outcome(on, "pdf");
    expect(pdfOut.fields.find((f) => f.text?.includes("Hopper"))?.metadata.ner).toMatchObject({ "Grace Hopper": "PERSON" });
    // The entity facets reach the index: the entity filter finds the note.
    const found = await rawCall(on.d.client, "POST", `/api/v1/kb/${on.kbid}/find`, {
      query: "talked",
      features: ["keyword"],
      filter_expression: { field: { prop: "entity", subtype: "ELEMENTS", value: "radium" } },
    });
    expect(Object.keys((found.json as { resources: Record<string, unknown> }).resources)).toEqual([on.rids.note]);
  }, 120_000);
});

import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as findApi from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as processing from "../../src/api/processing.js";
import * as api from "../../src/api/resources.js";
import { buildDocx, buildPdf } from "../fixtures/documents.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { CountingEmbedder, waitIdle } from "./ingest-helpers.js";

let d: TestDaemon;
let kbid: string;
let dir: string;
const embedder = new CountingEmbedder();

type Entry = {
  status: string;
  error?: { body: string; code_str: string; severity: string };
  errors?: unknown[];
  extracted?: Record<string, any>;
};
type Res = { id: string; metadata: { status: string; language?: string }; data: Record<string, Record<string, Entry>> };

async function show(rid: string): Promise<Res> {
  return (await d.client.call(api.getResource.byId, {
    params: { kbid, rid },
    query: { show: ["basic", "extracted", "errors"] },
  })) as unknown as Res;
}

async function rowsOf(rid: string) {
  const store = await d.daemon.services.store.kb(kbid);
  const rows = await store.paragraphs.resourceRows(rid);
  return rows.map(({ vectors, ...r }) => {
    const o: Record<string, any> = { ...r };
    for (const [vs, v] of Object.entries(vectors ?? {})) o[`vec_${vs}`] = v;
    return o;
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbox-ingest-"));
  d = await startTestDaemon({ env: OFFLINE });
  d.daemon.services.models.registerEmbedder("test:trigram", embedder);
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "ingest" } })).uuid;
});
afterAll(async () => {
  await d.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("text fields", () => {
  it("extracts, splits and indexes every format, with positions and languages", async () => {
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: {
        title: "Formats",
        texts: {
          plain: {
            body: "The first paragraph talks about rivers.\n\nThe second one is about mountains and valleys.",
            format: "PLAIN",
          },
          md: {
            body: "# Heading\n\nSome *markdown* text about the weather today.\n\n- a list item\n- another item",
            format: "MARKDOWN",
          },
          html: {
            body: "<html><body><h1>Title</h1><p>An HTML paragraph with <b>bold</b> words.</p><script>var x=1</script></body></html>",
            format: "HTML",
          },
          blank: { body: "Block one line one\nline two\n\nBlock two", format: "PLAIN_BLANKLINE_SPLIT" },
          json: { body: JSON.stringify({ name: "kbox", about: "a local search service for documents" }), format: "JSON" },
        },
      },
    });
    await waitIdle(d.client, kbid);
    const r = await show(uuid);
    expect(r.metadata.status).toBe("PROCESSED");
    expect(r.metadata.language).toBe("en");
    for (const [id, e] of Object.entries(r.data.texts)) {
      expect(e.status, id).toBe("PROCESSED");
      const text: string = e.extracted?.text.text;
      const paras = e.extracted?.metadata.metadata.paragraphs as { start: number; end: number }[];
      expect(paras.length, id).toBeGreaterThan(0);
      for (const p of paras) expect(text.slice(p.start, p.end).trim().length).toBeGreaterThan(0);
    }
    expect(r.data.texts.html.extracted?.text.text).not.toMatch(/<b>|var x/);
    expect(r.data.texts.html.extracted?.text.text).toContain("HTML paragraph with bold words");
    const rows = await rowsOf(uuid);
    const ids = rows.map((x) => x.id as string);
    expect(ids).toContain(`${uuid}/a/title/0-7`);
    expect(ids.some((i) => i.startsWith(`${uuid}/t/plain/0-`))).toBe(true);
    const plain = rows.filter((x) => x.field === "t/plain");
    expect(plain.map((x) => x.text)).toEqual([
      "The first paragraph talks about rivers.",
      "The second one is about mountains and valleys.",
    ]);
    expect(plain[0].facets).toContain("/s/p/en");
    expect(rows.every((x) => x.vec_trigram !== null)).toBe(true);
  });

  it("a field with no text ends EMPTY", async () => {
    const { uuid } = await d.client.call(api.createResource, { params: { kbid }, body: { texts: { e: { body: "   \n  " } } } });
    await waitIdle(d.client, kbid);
    const r = await show(uuid);
    expect(r.data.texts.e.status).toBe("EMPTY");
    expect(r.metadata.status).toBe("EMPTY");
    expect(await rowsOf(uuid)).toEqual([]);
  });
});

describe("file fields", () => {
  it("indexes a PDF per page and a DOCX", async () => {
    await buildPdf(join(dir, "a.pdf"), ["Page one speaks about apples and pears.", "Page two speaks about oranges."]);
    await buildDocx(join(dir, "b.docx"), {
      title: "Doc",
      sections: [{ heading: "Intro", paragraphs: ["Docx paragraph about the sea."] }],
    });
    const b64 = (f: string) => readFileSync(join(dir, f)).toString("base64");
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: {
        files: {
          pdf: { file: { filename: "a.pdf", content_type: "application/pdf", payload: b64("a.pdf") } },
          docx: { file: { filename: "b.docx", content_type: "application/octet-stream", payload: b64("b.docx") } },
        },
      },
    });
    await waitIdle(d.client, kbid);
    const r = await show(uuid);
    expect(r.data.files.pdf.status).toBe("PROCESSED");
    expect(r.data.files.docx.status).toBe("PROCESSED");
    const paras: { page: { page: number } }[] = r.data.files.pdf.extracted?.metadata?.metadata?.paragraphs ?? [];
    const pages = paras.map((p) => p.page.page);
    expect(pages).toEqual([1, 2]);
    expect(r.data.files.pdf.extracted?.file.icon).toBe("application/pdf");
    const rows = await rowsOf(uuid);
    expect(rows.find((x) => x.field === "f/pdf" && x.page === 2)?.text).toContain("oranges");
    expect(rows.find((x) => x.field === "f/docx" && String(x.text).includes("sea"))?.facets).toContain(
      "/n/i/application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
  });

  it("a corrupt PDF and an unknown binary end as ERROR with a message", async () => {
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: {
        title: "Broken",
        files: {
          bad: {
            file: {
              filename: "bad.pdf",
              content_type: "application/pdf",
              payload: Buffer.from("%PDF-1.7\n1 0 obj garbage").toString("base64"),
            },
          },
          bin: { file: { filename: "blob.bin", payload: randomBytes(4096).toString("base64") } },
        },
      },
    });
    await waitIdle(d.client, kbid);
    const r = await show(uuid);
    expect(r.metadata.status).toBe("ERROR");
    for (const id of ["bad", "bin"]) {
      const e = r.data.files[id];
      expect(e.status).toBe("ERROR");
      expect(e.error?.severity).toBe("ERROR");
      expect(e.error?.body.length).toBeGreaterThan(5);
      expect(e.errors).toHaveLength(1);
    }
    expect(r.data.files.bin.error?.code_str).toBe("UNSUPPORTED_FORMAT");
    expect((await rowsOf(uuid)).map((x) => x.field)).toEqual(["a/title"]);
  });
});

describe("extraction output", () => {
  it("lives in the blob folder, not in the fields table; a new output replaces the old file; older inline records still serve theirs", async () => {
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: { texts: { body: { body: "Rivers run to the sea.\n\nMountains stand still.", format: "PLAIN" } } },
    });
    await waitIdle(d.client, kbid);
    const store = await d.daemon.services.store.kb(kbid);
    const doc = await store.fields.get(`${uuid}/t/body`);
    expect(doc?.extracted).toBeUndefined();
    expect(doc?.extracted_blob).toMatch(new RegExp(`^r/${uuid}/extracted/`));
    expect(doc?.mime).toBe("text/plain");
    const file = doc?.extracted_blob as string;
    expect(JSON.stringify(await store.readExtracted(file))).toContain("Mountains stand still.");
    expect((await show(uuid)).data.texts.body.extracted?.text.text).toContain("Rivers run to the sea.");
    const one = await d.client.call(api.getField.byId, {
      params: { kbid, rid: uuid, field_type: "text", field_id: "body" },
      query: { show: ["extracted"] },
    });
    expect(JSON.stringify(one)).toContain("Mountains stand still.");

    await d.client.call(api.reprocessResource.byId, { params: { kbid, rid: uuid } });
    await waitIdle(d.client, kbid);
    const again = await store.fields.get(`${uuid}/t/body`);
    expect(again?.extracted_blob).not.toBe(doc?.extracted_blob);
    expect(await store.blobs.readBuffer(file)).toBeUndefined();
    expect((await show(uuid)).data.texts.body.extracted?.text.text).toContain("Rivers run to the sea.");

    // A new value: the old output goes with the old value.
    const beforeEdit = again?.extracted_blob as string;
    await d.client.call(api.putField.byId, {
      params: { kbid, rid: uuid, field_type: "text", field_id: "body" },
      body: { body: "Lakes lie still.", format: "PLAIN" },
    });
    await waitIdle(d.client, kbid);
    await vi.waitFor(async () => expect(await store.blobs.readBuffer(beforeEdit)).toBeUndefined());
    expect(await store.blobs.keysUnder(`r/${uuid}/extracted`)).toHaveLength(1);
    expect((await show(uuid)).data.texts.body.extracted?.text.text).toBe("Lakes lie still.");

    // A record written before (output inline): served as it is.
    const legacy = { ...(again as NonNullable<typeof again>), extracted: { text: { text: "kept inline" } } };
    delete legacy.extracted_blob;
    await store.fields.put(`${uuid}/t/body`, uuid, legacy);
    expect((await show(uuid)).data.texts.body.extracted?.text.text).toBe("kept inline");
  });
});

describe("incremental processing", () => {
  it("re-embeds only changed paragraphs; metadata changes and reprocess embed nothing", async () => {
    const body = (mid: string) => ({ body: `Alpha paragraph stays the same.\n\n${mid}\n\nOmega paragraph stays too.` });
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: { texts: { t: body("Middle version one.") } },
    });
    await waitIdle(d.client, kbid);
    const first = (await rowsOf(uuid)).find((x) => x.text.startsWith("Alpha"))?.vec_trigram;
    embedder.texts = [];
    await d.client.call(api.putField.byId, {
      params: { kbid, rid: uuid, field_type: "text", field_id: "t" },
      body: body("Middle version two."),
    });
    await waitIdle(d.client, kbid);
    expect(embedder.texts).toEqual(["Middle version two."]);
    const rows = await rowsOf(uuid);
    expect(rows.map((x) => x.text)).toContain("Middle version two.");
    expect(rows.map((x) => x.text)).not.toContain("Middle version one.");
    expect(Array.from(rows.find((x) => x.text.startsWith("Alpha"))?.vec_trigram)).toEqual(Array.from(first));

    embedder.texts = [];
    await d.client.call(api.updateResource.byId, {
      params: { kbid, rid: uuid },
      body: {
        usermetadata: { classifications: [{ labelset: "topic", label: "greek" }] },
        origin: { tags: ["letters"], path: "/a/b.txt" },
        hidden: true,
      },
    });
    // Resource attributes are read from the record: filters see the change at once, and the
    // paragraphs (text, vectors) stay as they were.
    const found = async (filters: string[], show_hidden = true) => {
      const r = await d.client.call(findApi.find, {
        params: { kbid },
        body: { query: "paragraph", features: ["keyword"], filters, show_hidden },
      });
      return Object.keys(r.resources);
    };
    expect(await found(["/l/topic/greek"])).toEqual([uuid]);
    expect(await found(["/t/letters"])).toEqual([uuid]);
    expect(await found(["/p/a"])).toEqual([uuid]);
    expect(await found(["/l/topic/greek"], false)).toEqual([]);
    await waitIdle(d.client, kbid);
    const kept = await rowsOf(uuid);
    expect(kept).toHaveLength(3);
    for (const x of kept) expect(x.vec_trigram).not.toBeNull();

    await d.client.call(api.reprocessResource.byId, { params: { kbid, rid: uuid } });
    await waitIdle(d.client, kbid);
    expect(embedder.texts).toEqual([]);
    expect((await show(uuid)).metadata.status).toBe("PROCESSED");
  });

  it("deleting a resource while it is queued leaves no paragraphs", async () => {
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        d.client.call(api.createResource, { params: { kbid }, body: { texts: { t: { body: `Doomed text number ${i}.` } } } }),
      ),
    );
    await Promise.all(created.map((c) => d.client.call(api.deleteResource.byId, { params: { kbid, rid: c.uuid } })));
    await waitIdle(d.client, kbid);
    for (const c of created) expect(await rowsOf(c.uuid)).toEqual([]);
  });
});

describe("processing status", () => {
  it("lists resources with field statuses, filtered and paginated by cursor", async () => {
    const all = await d.client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1000 } });
    expect(all.queue).toEqual({ pending: 0, running: 0, pending_fields: 0, running_fields: 0, retrying: 0, retrying_fields: 0 });
    const total = Object.values(all.totals).reduce((a, b) => a + b, 0);
    expect(all.results).toHaveLength(total);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await d.client.call(processing.processingStatus, { params: { kbid }, query: { limit: 2, cursor } });
      seen.push(...page.results.map((r) => r.resource_id));
      cursor = page.cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.results.map((r) => r.resource_id));
    // Oldest first, by creation then id: pages of 2 (picked without sorting all) and the page of all agree on it.
    const key = (r: { created: string; resource_id: string }) => `${r.created} ${r.resource_id}`;
    expect(all.results.map(key)).toEqual(all.results.map(key).sort());
    const errors = await d.client.call(processing.processingStatus, { params: { kbid }, query: { status: ["ERROR"] } });
    expect(errors.results.length).toBe(all.totals.ERROR);
    const broken = errors.results[0];
    expect(broken.failed).toBe(true);
    expect(broken.fields.find((f) => f.field === "f/bin")?.error?.code_str).toBe("UNSUPPORTED_FORMAT");
  });

  it("rejects a bad cursor with 422", async () => {
    await expect(
      d.client.call(processing.processingStatus, { params: { kbid }, query: { cursor: "nope" } }),
    ).rejects.toMatchObject({ status: 422 });
  });
});

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { scannedPdf, textImage } from "../fixtures/scans.js";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { waitIdle } from "./ingest-helpers.js";

let d: TestDaemon;
let kbid: string;
const dir = mkdtempSync(join(tmpdir(), "kbox-scan-"));

async function upload(name: string, body: Buffer, type: string): Promise<string> {
  const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/upload`, body, {
    "content-type": type,
    "x-filename": encodeURIComponent(name),
  });
  expect(r.status).toBe(201);
  return (r.json as { uuid: string }).uuid;
}

async function fileField(rid: string) {
  const r = (await d.client.call(resources.getResource.byId, {
    params: { kbid, rid },
    query: { show: ["basic", "values", "errors", "extracted"] },
  })) as any;
  return r.data.files.file;
}

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "scans" } })).uuid;
});
afterAll(async () => {
  await d?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("OCR of images and scanned PDFs", () => {
  it("reads a rendered PNG image as OCR text on page 1", async () => {
    const rid = await upload(
      "gauge.png",
      textImage(["Maintenance notes", "", "The pressure gauge reads up to 300 psi.", "Close the valve before opening the lid."]),
      "image/png",
    );
    await waitIdle(d.client, kbid, 180_000);
    const f = await fileField(rid);
    expect(f.status).toBe("PROCESSED");
    const text: string = f.extracted.text.text;
    expect(text).toMatch(/Maintenance notes/);
    expect(text).toMatch(/Close the valve before opening the lid/);
    const paras = f.extracted.metadata.metadata.paragraphs as {
      kind: string;
      page: { page: number; page_with_visual: boolean };
    }[];
    expect(paras.length).toBeGreaterThan(0);
    expect(paras.every((p) => p.kind === "OCR" && p.page.page === 1 && p.page.page_with_visual)).toBe(true);
  }, 240_000);

  it("reads a scanned, image-only PDF page by page, and answers from it with a citation", async () => {
    const path = join(dir, "scan.pdf");
    await scannedPdf(path, [
      ["Pump manual", "The pump runs at 1450 rpm."],
      ["Service", "Replace the filter every 6 months."],
    ]);
    const rid = await upload("scan.pdf", readFileSync(path), "application/pdf");
    await waitIdle(d.client, kbid, 180_000);
    const f = await fileField(rid);
    expect(f.status).toBe("PROCESSED");
    expect(f.extracted.text.text).toMatch(/Replace the filter every 6 months/);
    const paras = f.extracted.metadata.metadata.paragraphs as { start: number; kind: string; page: { page: number } }[];
    const text: string = f.extracted.text.text;
    const filter = paras.find((p) => text.slice(p.start).startsWith("Service"));
    expect(filter?.page.page).toBe(2);
    expect(filter?.kind).toBe("OCR");
    const r = await ask(d, kbid, { query: "How often should the filter be replaced?", features: ["keyword"], citations: true });
    expect(answerOf(r.items)).toContain("Replace the filter every 6 months.");
    const cites = Object.keys(itemOf(r.items, "citations")?.citations ?? {});
    expect(cites.some((id) => id.startsWith(rid))).toBe(true);
  }, 240_000);
});

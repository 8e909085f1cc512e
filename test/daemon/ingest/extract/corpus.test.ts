import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { extractFileField } from "../../../../daemon/ingest/extract/index.js";
import { extractPdf } from "../../../../daemon/ingest/extract/pdf.js";
import { splitParagraphs } from "../../../../daemon/ingest/split.js";
import { buildMixedCorpus } from "../../../fixtures/corpus.js";
import { buildPdf } from "../../../fixtures/documents.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kbox-corpus-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("buildMixedCorpus writes every format; each extracts and splits into its paragraphs (throughput printed)", async () => {
  const files = await buildMixedCorpus(join(dir, "corpus"), 10, { paragraphsPerDoc: 12 });
  expect(files.map((f) => f.format)).toEqual(["txt", "md", "html", "pdf", "docx", "txt", "md", "html", "pdf", "docx"]);
  const again = await buildMixedCorpus(join(dir, "again"), 3, { paragraphsPerDoc: 12 });
  expect(again[0].bytes).toBe(files[0].bytes);
  // Warm up (library loading, language model) so the printed figure is the steady state.
  for (const f of files.slice(0, 5)) await extractFileField({ path: f.path });
  let paragraphs = 0;
  let bytes = 0;
  const t0 = performance.now();
  for (const f of files) {
    const ex = await extractFileField({ path: f.path });
    const ps = splitParagraphs(ex);
    // Title + 12 paragraphs (Markdown adds "Part" headings, PDFs have no title line).
    expect(ps.length, f.path).toBeGreaterThanOrEqual(12);
    expect(ex.metadata.language, f.path).toBe("en");
    paragraphs += ps.length;
    bytes += f.bytes;
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `mixed corpus: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB, ${paragraphs} paragraphs in ${secs.toFixed(2)} s (${Math.round(paragraphs / secs)} paragraphs/s)`,
  );
});

test("a PDF read in ranges and reopened as it goes (the large-file path) gives the same result as one read whole", async () => {
  const pages = Array.from({ length: 30 }, (_, i) => `Range page ${i + 1}.\n\n${"Filler sentence for the page. ".repeat(20)}`);
  await buildPdf(join(dir, "ranged.pdf"), pages);
  const whole = await extractPdf(join(dir, "ranged.pdf"));
  const ranged = await extractPdf(join(dir, "ranged.pdf"), undefined, { wholeFileLimit: 1024 });
  expect(ranged).toEqual(whole);
  expect(ranged.pages?.length).toBe(30);
  // Reopened after every page: the memory bound for big files must not change the result.
  const reopened = await extractPdf(join(dir, "ranged.pdf"), undefined, { wholeFileLimit: 1024, reloadBytes: 1 });
  expect(reopened).toEqual(whole);
  await buildPdf(join(dir, "ranged-secret.pdf"), pages.slice(0, 5), { userPassword: "pw" });
  const secret = await extractPdf(join(dir, "ranged-secret.pdf"), "pw", { wholeFileLimit: 1024, reloadBytes: 1 });
  expect(secret.pages?.length).toBe(5);
});

/**
 * Ingestion throughput through the real daemon pipeline (queue → extract → split → keyword index),
 * on a mixed corpus (text, Markdown, HTML, PDF, DOCX); the same with the installed embedding model
 * next to that model's raw throughput (pipeline overhead); and peak RSS while ingesting a PDF set.
 *   npx tsx bench/ingest.ts [documents=100] [paragraphs-per-doc=40] [pdf-set-MB=20]
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { extractFileField } from "../daemon/ingest/extract/index.js";
import { splitParagraphs } from "../daemon/ingest/split.js";
import { type RunningDaemon, startDaemon } from "../daemon/server.js";
import { buildMixedCorpus, paragraphs, rng } from "../test/fixtures/corpus.js";
import { buildPdf } from "../test/fixtures/documents.js";

const DOCS = Number(process.argv[2] ?? 100);
const PER_DOC = Number(process.argv[3] ?? 40);
const PDF_MB = Number(process.argv[4] ?? 20);
process.env.KBOX_MODELS_AUTOPULL = "0";

interface Row {
  what: string;
  files: number;
  mb: number;
  paragraphs: number;
  seconds: number;
  extra?: string;
}
const rows: Row[] = [];

/** Ingest `files` into a new knowledge box through the upload service; wait until the queue is idle. */
async function ingest(d: RunningDaemon, slug: string, files: string[], sample?: () => void): Promise<{ seconds: number; paragraphs: number; embedded: number }> {
  const s = d.services;
  const kb = await s.kbs.create({ slug } as never);
  const before = { ...s.processing.totals };
  const timer = sample ? setInterval(sample, 50) : undefined;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < files.length) {
        const f = files[next++];
        await s.uploads.store(kb.uuid, { kind: "new" }, { filename: basename(f), contentType: "application/octet-stream" }, () => createReadStream(f));
      }
    }),
  );
  await s.processing.idle();
  const seconds = (performance.now() - t0) / 1000;
  if (timer) clearInterval(timer);
  return { seconds, paragraphs: s.processing.totals.paragraphs - before.paragraphs, embedded: s.processing.totals.embedded - before.embedded };
}

/** Extraction + splitting alone, in this process, for the same files (no storage). */
async function extractOnly(files: string[]): Promise<{ seconds: number; paragraphs: number; texts: string[] }> {
  const t0 = performance.now();
  const texts: string[] = [];
  for (const f of files) for (const p of splitParagraphs(await extractFileField({ path: f, filename: basename(f) }))) texts.push(p.text);
  return { seconds: (performance.now() - t0) / 1000, paragraphs: texts.length, texts };
}

const mbOf = (files: string[]) => files.reduce((n, f) => n + statSync(f).size, 0) / 1024 / 1024;

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-ingest-"));
  const d = await startDaemon({ env: { KBOX_HOME: home } as NodeJS.ProcessEnv });
  try {
    process.stderr.write(`building a corpus of ${DOCS} documents...\n`);
    const corpus = (await buildMixedCorpus(join(home, "corpus"), DOCS, { paragraphsPerDoc: PER_DOC })).map((c) => c.path);
    const mb = mbOf(corpus);
    await extractOnly(corpus.slice(0, 5)); // warm up: language detector, parsers
    const ex = await extractOnly(corpus);
    rows.push({ what: "extract + split only", files: corpus.length, mb, paragraphs: ex.paragraphs, seconds: ex.seconds });

    const models = d.services.models;
    const keywordOnly = models.status().keyword_only;
    if (keywordOnly) {
      const r = await ingest(d, "bench-keyword", corpus);
      rows.push({ what: "pipeline, keyword only", files: corpus.length, mb, paragraphs: r.paragraphs, seconds: r.seconds });
    } else {
      process.stderr.write(`embedding with ${models.status().default}\n`);
      const emb = (await models.embeddersFor((await d.services.kbs.create({ slug: "bench-probe" } as never)).uuid))[0].embedder;
      const t0 = performance.now();
      for (let i = 0; i < ex.texts.length; i += 32) await emb.embed(ex.texts.slice(i, i + 32), "passage");
      const raw = (performance.now() - t0) / 1000;
      rows.push({ what: `model alone (${emb.id})`, files: 0, mb: 0, paragraphs: ex.texts.length, seconds: raw });
      const r = await ingest(d, "bench-embed", corpus);
      const overhead = ((r.seconds - raw) / raw) * 100;
      rows.push({ what: "pipeline with embedding", files: corpus.length, mb, paragraphs: r.paragraphs, seconds: r.seconds, extra: `overhead ${overhead.toFixed(1)}% over the model` });
    }

    process.stderr.write(`building a ${PDF_MB} MB PDF set...\n`);
    const pdfs = await pdfSet(join(home, "pdfs"), PDF_MB);
    let peak = 0;
    const base = process.memoryUsage().rss;
    const r = await ingest(d, "bench-pdf", pdfs, () => {
      peak = Math.max(peak, process.memoryUsage().rss);
    });
    rows.push({ what: "PDF set", files: pdfs.length, mb: mbOf(pdfs), paragraphs: r.paragraphs, seconds: r.seconds, extra: `peak RSS ${(peak / 2 ** 20).toFixed(0)} MB (${(base / 2 ** 20).toFixed(0)} MB before)` });
  } finally {
    await d.stop();
    rmSync(home, { recursive: true, force: true });
  }
  print();
}

/** PDFs of about 1 MB each (long pages of generated prose) until `mb` is reached. */
async function pdfSet(dir: string, mb: number): Promise<string[]> {
  const { mkdir } = await import("node:fs/promises");
  await mkdir(dir, { recursive: true });
  const rand = rng(7);
  const out: string[] = [];
  let total = 0;
  for (let i = 0; total < mb * 2 ** 20; i++) {
    const p = join(dir, `set-${i}.pdf`);
    const pages = Array.from({ length: 60 }, () => paragraphs(rand, 6).join("\n\n"));
    await buildPdf(p, pages);
    total += statSync(p).size;
    out.push(p);
  }
  return out;
}

function print(): void {
  const head = ["stage", "files", "MB", "paragraphs", "seconds", "paragraphs/s", "MB/s", ""];
  const body = rows.map((r) => [
    r.what,
    String(r.files || "-"),
    r.mb ? r.mb.toFixed(1) : "-",
    String(r.paragraphs),
    r.seconds.toFixed(2),
    (r.paragraphs / r.seconds).toFixed(0),
    r.mb ? (r.mb / r.seconds).toFixed(2) : "-",
    r.extra ?? "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  for (const line of [head, ...body]) console.log(line.map((c, i) => (i > 0 && i < 7 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd());
}

await main();

/**
 * Ingestion throughput and memory, through the real daemon (compiled, in its own process, as users run
 * it), driven over its socket like `kbox add`:
 *   1. extraction + splitting alone, in this process (what the pipeline could reach with nothing else to do);
 *   2. the pipeline (upload → queue → extract in workers → split → keyword index) on a mixed corpus
 *      (text, Markdown, HTML, PDF, DOCX), no embedding;
 *   3. peak RSS of a fresh daemon while it ingests a PDF set;
 *   4. with an embedding model: the model alone in this process on the same paragraphs, then the
 *      pipeline with it, and the pipeline's overhead over the model.
 * The model is a folder given with --model (a real one, if you have it), else an encoder built here with
 * the exact architecture of all-MiniLM-L6-v2 and random weights: same cost per token, no meaning.
 *
 *   0. OCR alone, in this process: scanned (image-only) PDF pages per second (--ocr-pages N, default 4);
 *   npx tsx bench/ingest.ts [documents=100] [paragraphs-per-doc=40] [pdf-set-MB=200] [--model <folder>] [--no-embed] [--ocr-pages N]
 * documents=0 skips stages 1, 2 and 4. KBOX_BENCH_PDF_DIR keeps the PDF set in that folder and reuses it on the next run.
 * KBOX_BENCH_UPLOADS sets the uploads in flight (default 8); KBOX_BENCH_VERBOSE=1 prints CPU by thread and memory over time; KBOXD_NODE_OPTIONS passes node flags to the daemon (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative, sep } from "node:path";
import { extractFileField } from "../daemon/ingest/extract/index.js";
import { splitParagraphs } from "../daemon/ingest/split.js";
import { readManifest } from "../daemon/models/manifest.js";
import { OnnxEmbedder } from "../daemon/models/onnx.js";
import { type AddedFile, addFolder } from "../src/api/add-folder.js";
import { status } from "../src/api/daemon.js";
import { counters, createKb } from "../src/api/kbs.js";
import { pullModel } from "../src/api/models.js";
import { kboxPaths } from "../src/api/paths.js";
import { processingStatus } from "../src/api/processing.js";
import { KboxClient } from "../src/client/client.js";
import { daemonEnv, daemonNodeFlags, hello } from "../src/client/connect.js";
import { directUpload } from "../src/client/upload.js";
import { buildMixedCorpus, paragraphs, rng } from "../test/fixtures/corpus.js";
import { buildPdf } from "../test/fixtures/documents.js";
import { scannedPdf, textImage } from "../test/fixtures/scans.js";
import { childPids, rssBytes, threadSeconds, threadsBetween } from "./proc.js";
import { diskBytes, ensureRecoll, recollConfig, recollIndex } from "./recoll.js";

const args = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--model" && all[i - 1] !== "--ocr-pages");
const flag = (name: string) => process.argv.indexOf(name);
const DOCS = Number(args[0] ?? 100);
const PER_DOC = Number(args[1] ?? 40);
const PDF_MB = Number(args[2] ?? 200);
const MODEL = flag("--model") > 0 ? process.argv[flag("--model") + 1] : undefined;
const EMBED = flag("--no-embed") < 0;
/** --ocr-pages N: scanned pages for the OCR stage (default 4; 0 skips it). */
const OCR_PAGES = flag("--ocr-pages") > 0 ? Number(process.argv[flag("--ocr-pages") + 1]) : 4;
const ROOT = join(import.meta.dirname, "..");
/** KBOX_BENCH_VERBOSE=1: CPU by thread for each stage, and the memory of the PDF stage every 5 s. */
const VERBOSE = Boolean(process.env.KBOX_BENCH_VERBOSE);

interface Row {
  what: string;
  files: number;
  mb: number;
  paragraphs: number;
  seconds: number;
  /** CPU seconds used (the daemon's, or this process's for in-process stages). */
  cpu?: number;
  extra?: string;
}
const rows: Row[] = [];
const say = (s: string) => process.stderr.write(`${s}\n`);
const mbOf = (files: string[]) => files.reduce((n, f) => n + statSync(f).size, 0) / 2 ** 20;

/** A kboxd child process from dist/, with its client and an RSS sampler reading /proc. */
class Daemon {
  private constructor(
    readonly child: ChildProcess,
    readonly client: KboxClient,
  ) {}

  static async start(home: string): Promise<Daemon> {
    // As `kbox` starts it: with jemalloc preloaded when the system has it, and its node flags.
    const env = daemonEnv({ ...process.env, KBOX_HOME: home, KBOX_MODELS_AUTOPULL: "0" });
    const child = spawn(
      process.execPath,
      [
        ...daemonNodeFlags(env),
        ...(process.env.KBOXD_NODE_OPTIONS?.split(" ").filter(Boolean) ?? []),
        join(ROOT, "dist/bin/kboxd.js"),
      ],
      { env, stdio: ["ignore", "ignore", "inherit"] },
    );
    const client = new KboxClient({ kind: "unix", socket: kboxPaths(env).socket });
    for (let i = 0; i < 600 && !(await hello(client)); i++) await new Promise((r) => setTimeout(r, 50));
    return new Daemon(child, client);
  }

  /** The daemon's pid and its children's (the extraction workers). */
  private pids(): number[] {
    const pid = this.child.pid as number;
    return [pid, ...childPids(pid)];
  }

  private static stat(pid: number): string[] {
    const st = readFileSync(`/proc/${pid}/stat`, "utf8");
    return st.slice(st.lastIndexOf(") ") + 2).split(" ");
  }

  /** Resident memory of the daemon and its workers, in MB (all threads: LanceDB, onnxruntime...). */
  memory(): number {
    return this.memoryParts().reduce((a, b) => a + b, 0);
  }

  /** Resident memory in MB: the daemon's, then its workers' together. */
  memoryParts(): [number, number] {
    const mb = (pid: number) => rssBytes(pid) / 2 ** 20; // 0 for a worker that just exited
    const [self, ...kids] = this.pids();
    return [mb(self), kids.reduce((n, k) => n + mb(k), 0)];
  }

  /** Sample memory every 100 ms until the returned function is called; it returns the peak in MB. */
  sampleMemory(): () => number {
    let peak = this.memory();
    let n = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, this.memory());
      if (VERBOSE && ++n % 50 === 0) {
        void this.client.call(status).then((st) => {
          const mb = (b = 0) => (b / 2 ** 20).toFixed(0);
          say(
            `  RSS at ${n / 10} s: ${this.memoryParts()
              .map((m) => m.toFixed(0))
              .join(
                " + ",
              )} MB (heap ${mb(st.heap_bytes)}, external ${mb(st.external_bytes)}, LanceDB caches ${mb(st.cache_bytes)})`,
          );
        });
      }
    }, 100);
    return () => {
      clearInterval(timer);
      return Math.max(peak, this.memory());
    };
  }

  /** CPU seconds used by the daemon and its workers (live and exited), from /proc: robust to other load. */
  cpu(): number {
    const [self, ...kids] = this.pids();
    const f = Daemon.stat(self);
    let ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime stime cutime cstime
    for (const pid of kids) {
      try {
        const k = Daemon.stat(pid);
        ticks += Number(k[11]) + Number(k[12]);
      } catch {}
    }
    return ticks / 100;
  }

  /** CPU seconds by kind of thread in the daemon (bench/proc.ts threadSeconds), and the extraction workers'. */
  threads(): Map<string, number> {
    const [self, ...kids] = this.pids();
    const out = threadSeconds(self);
    for (const pid of kids) {
      try {
        const k = Daemon.stat(pid);
        out.set("extract-workers", (out.get("extract-workers") ?? 0) + (Number(k[11]) + Number(k[12])) / 100);
      } catch {}
    }
    return out;
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    this.child.kill("SIGTERM");
    await exited;
  }
}

/**
 * Ingest `files` into a new box and wait until all are processed. By uploads, KBOX_BENCH_UPLOADS (8)
 * at a time, as a client of a zone's API does; or, given the folder they are in, as `kbox add <folder>`
 * does with the local daemon: the list of paths in one add-folder request (the daemon reads the files).
 */
async function ingest(
  d: Daemon,
  slug: string,
  files: string[],
  folder?: string,
): Promise<{ seconds: number; paragraphs: number; cpu: number; uploaded: number }> {
  const kb = await d.client.call(createKb, { body: { slug } });
  const t0 = performance.now();
  const cpu0 = d.cpu();
  const threads0 = d.threads();
  let next = 0;
  if (folder) {
    const body = { root: folder, files: files.map((f) => relative(folder, f).split(sep).join("/")) };
    for await (const raw of d.client.stream(addFolder, { params: { kbid: kb.uuid }, body })) {
      const item = raw as AddedFile & { type?: string; detail?: string };
      if (item.type === "error" || item.status === "FAILED") throw new Error(`add-folder: ${item.detail ?? item.error}`);
    }
  } else
    await Promise.all(
      Array.from({ length: Number(process.env.KBOX_BENCH_UPLOADS ?? 8) }, async () => {
        while (next < files.length) await directUpload(d.client, { kbid: kb.uuid, path: files[next++] });
      }),
    );
  const uploaded = (performance.now() - t0) / 1000;
  for (;;) {
    const s = await d.client.call(processingStatus, { params: { kbid: kb.uuid }, query: { limit: 1 } });
    if (!s.queue.pending && !s.queue.running && !s.totals.PENDING) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = d.cpu() - cpu0;
  if (VERBOSE) {
    say(`${slug}: CPU by thread: ${threadsBetween(threads0, d.threads())}`);
  }
  const c = await d.client.call(counters, { params: { kbid: kb.uuid } });
  return { seconds, paragraphs: c.paragraphs, cpu, uploaded };
}

/** Extraction + splitting alone, in this process, for the same files (no storage). */
async function extractOnly(files: string[]): Promise<{ seconds: number; paragraphs: number; texts: string[] }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const texts: string[] = [];
  for (const f of files)
    for (const p of splitParagraphs(await extractFileField({ path: f, filename: basename(f) }))) texts.push(p.text);
  const c = process.cpuUsage(c0);
  return { seconds: (performance.now() - t0) / 1000, paragraphs: texts.length, texts, cpu: (c.user + c.system) / 1e6 };
}

/** PDFs of about 1 MB each (long pages of generated prose) until `mb` is reached; a set already in `dir` is reused. */
async function pdfSet(dir: string, mb: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const kept = readdirSync(dir)
    .filter((f) => /^set-\d+\.pdf$/.test(f))
    .map((f) => join(dir, f));
  if (kept.length && Math.abs(mbOf(kept) - mb) < 2) return kept;
  say(`building a ${mb} MB PDF set...`);
  const rand = rng(7);
  const out: string[] = [];
  for (let i = 0, total = 0; total < mb * 2 ** 20; i++) {
    const p = join(dir, `set-${i}.pdf`);
    await buildPdf(
      p,
      Array.from({ length: 60 }, () => paragraphs(rand, 6).join("\n\n")),
    );
    total += statSync(p).size;
    out.push(p);
  }
  return out;
}

/** Stage 4: the model alone on the extracted paragraphs, then the pipeline with it. */
async function embedding(home: string, corpus: string[], texts: string[]): Promise<void> {
  let dir = MODEL;
  if (!dir) {
    say("building an encoder shaped like all-MiniLM-L6-v2 (random weights)...");
    dir = join(home, "minilm-l6-shape");
    const { writeBertModel, MINILM_L6 } = await import("../test/helpers/bert-model.js");
    // int8, as kbox runs its MiniLM-class defaults (onnx/model_quantized.onnx).
    writeBertModel(dir, { ...MINILM_L6, quantized: true });
  }
  const d = await Daemon.start(join(home, "embed"));
  try {
    let id = "";
    for await (const ev of d.client.stream(pullModel, { body: { id: "bench/encoder", from: dir, use: true } })) {
      const e = ev as { type: string; model?: { name: string }; detail?: string };
      if (e.type === "error") throw new Error(e.detail);
      if (e.type === "done") id = e.model?.name ?? "";
    }
    const installed = join(kboxPaths({ KBOX_HOME: join(home, "embed") }).data, "models", "bench", "encoder");
    // As the daemon runs it: KBOX_MODEL_THREADS, else the default.
    const emb = await OnnxEmbedder.open(
      installed,
      readManifest(installed) as never,
      Number(process.env.KBOX_MODEL_THREADS) || undefined,
    );
    await emb.embed(texts.slice(0, 64), "passage");
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < texts.length; i += 32) await emb.embed(texts.slice(i, i + 32), "passage");
    const raw = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    rows.push({
      what: `model alone (${id}, this process)`,
      files: 0,
      mb: 0,
      paragraphs: texts.length,
      seconds: raw,
      cpu: (c.user + c.system) / 1e6,
    });
    await ingest(d, "bench-embed-warmup", corpus.slice(0, 4));
    const r = await ingest(d, "bench-embed", corpus);
    const perParagraph = r.seconds / r.paragraphs / (raw / texts.length);
    rows.push({
      what: "pipeline with embedding",
      files: corpus.length,
      mb: mbOf(corpus),
      ...r,
      extra: `overhead ${((perParagraph - 1) * 100).toFixed(1)}% over the model`,
    });
  } finally {
    await d.stop();
  }
}

/** OCR alone, in this process: a scanned PDF (image-only pages) read page by page; the engine loads first. */
async function ocrStage(home: string): Promise<void> {
  const path = join(home, "scanned.pdf");
  const page = (n: number) => [
    `Page ${n} of the service manual`,
    "Replace the filter every 6 months and check the seals.",
    "The pump runs at 1450 rpm at full load.",
    "Close the valve before opening the lid.",
  ];
  await scannedPdf(
    path,
    Array.from({ length: OCR_PAGES }, (_, i) => page(i + 1)),
  );
  // The engine loads on the first image (about a second): not counted.
  writeFileSync(join(home, "warm.png"), textImage(["warm up"]));
  await extractFileField({ path: join(home, "warm.png"), ocr: true });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const ex = await extractFileField({ path, ocr: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  rows.push({
    what: "OCR, scanned PDF (in process)",
    files: 1,
    mb: mbOf([path]),
    paragraphs: splitParagraphs(ex).length,
    seconds,
    cpu: (cpu.user + cpu.system) / 1e6,
    extra: `${OCR_PAGES} pages: ${(OCR_PAGES / seconds).toFixed(2)} OCR pages/s, ${((OCR_PAGES * 1e6) / (cpu.user + cpu.system)).toFixed(2)} pages per CPU s`,
  });
}

async function main(): Promise<void> {
  say("compiling the daemon (npm run build)...");
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-ingest-"));
  try {
    if (OCR_PAGES > 0) await ocrStage(home);
    let corpus: string[] = [];
    let texts: string[] = [];
    if (DOCS > 0) {
      say(`building a corpus of ${DOCS} documents...`);
      corpus = (await buildMixedCorpus(join(home, "corpus"), DOCS, { paragraphsPerDoc: PER_DOC })).map((c) => c.path);
      const mb = mbOf(corpus);
      await extractOnly(corpus.slice(0, 5)); // warm up: language detector, parsers
      const ex = await extractOnly(corpus);
      texts = ex.texts;
      rows.push({
        what: "extract + split only (1 thread)",
        files: corpus.length,
        mb,
        paragraphs: ex.paragraphs,
        seconds: ex.seconds,
        cpu: ex.cpu,
      });

      const d = await Daemon.start(join(home, "keyword"));
      try {
        await ingest(d, "bench-warmup", process.env.KBOX_BENCH_WARM ? corpus : corpus.slice(0, 6)); // the extraction workers start (KBOX_BENCH_WARM: and warm up)
        const f = await ingest(d, "bench-keyword-folder", corpus, join(home, "corpus"));
        rows.push({
          what: "pipeline, keyword only (kbox add: add-folder)",
          files: corpus.length,
          mb,
          ...f,
          extra: `all files stored after ${f.uploaded.toFixed(2)} s`,
        });
        const r = await ingest(d, "bench-keyword", corpus);
        rows.push({
          what: "pipeline, keyword only (uploads)",
          files: corpus.length,
          mb,
          ...r,
          extra: `all uploads answered after ${r.uploaded.toFixed(2)} s (${process.env.KBOX_BENCH_UPLOADS ?? 8} in flight)`,
        });
        if (ensureRecoll(say)) {
          // recoll on the same files: it reads text, Markdown and HTML itself; PDF and DOCX need helper
          // programs (poppler-utils, python3-docx...) that the command-line package does not pull in.
          const conf = recollConfig(join(home, "corpus"));
          const rc = await recollIndex(conf);
          rows.push({
            what: "recoll, same corpus (recollindex)",
            files: corpus.length,
            mb,
            paragraphs: 0,
            seconds: rc.seconds,
            extra: `kbox pipeline / recoll = ${(r.seconds / rc.seconds).toFixed(2)}x; recoll peak RSS ${(rc.peakRssBytes / 2 ** 20).toFixed(0)} MB, index ${(diskBytes(conf) / 2 ** 20).toFixed(1)} MB (PDF/DOCX only with their helper programs installed)`,
          });
          rmSync(conf, { recursive: true, force: true });
        }
      } finally {
        await d.stop();
      }
    }

    if (PDF_MB > 0) {
      const pdfs = await pdfSet(process.env.KBOX_BENCH_PDF_DIR ?? join(home, "pdfs"), PDF_MB);
      const p = await Daemon.start(join(home, "pdf"));
      try {
        const before = p.memory();
        const peak = p.sampleMemory();
        const r = await ingest(p, "bench-pdf", pdfs);
        const top = peak();
        const st = await p.client.call(status);
        rows.push({
          what: "PDF set, fresh daemon",
          files: pdfs.length,
          mb: mbOf(pdfs),
          ...r,
          extra: `RSS of daemon + workers: ${before.toFixed(0)} MB idle, peak ${top.toFixed(0)} MB, after ${p
            .memoryParts()
            .map((m) => m.toFixed(0))
            .join(
              " + ",
            )} MB (daemon JS heap ${((st.heap_bytes ?? 0) / 2 ** 20).toFixed(0)} MB, external ${((st.external_bytes ?? 0) / 2 ** 20).toFixed(0)} MB, LanceDB caches ${((st.cache_bytes ?? 0) / 2 ** 20).toFixed(0)} MB)`,
        });
      } finally {
        await p.stop();
      }
    }
    if (EMBED && DOCS > 0) await embedding(home, corpus, texts);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  print();
}

function print(): void {
  const head = ["stage", "files", "MB", "paragraphs", "seconds", "paragraphs/s", "MB/s", "CPU s", "paragraphs per CPU s", ""];
  const body = rows.map((r) => [
    r.what,
    String(r.files || "-"),
    r.mb ? r.mb.toFixed(1) : "-",
    String(r.paragraphs || "-"),
    r.seconds.toFixed(2),
    r.paragraphs ? (r.paragraphs / r.seconds).toFixed(0) : "-",
    r.mb ? (r.mb / r.seconds).toFixed(2) : "-",
    r.cpu ? r.cpu.toFixed(2) : "-",
    r.cpu ? (r.paragraphs / r.cpu).toFixed(0) : "-",
    r.extra ?? "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  for (const line of [head, ...body])
    console.log(
      line
        .map((c, i) => (i > 0 && i < 9 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    );
}

await main();

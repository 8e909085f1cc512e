/**
 * Answers on real documents: ingest documents of this machine (manual pages, licences, an HTML manual,
 * a PDF; bench/answers-questions.ts), ask each question of the evaluation with the extractive default
 * (keyword retrieval, offline) and print
 *   answered   answerable questions answered with the right answer (status success)
 *   abstained  unanswerable questions answered "Not enough data to answer this." (no_context)
 *   cited      right answers whose citations include the document that answers
 *   p50        the median ask time
 * then the SciFact keyword nDCG@10 (bench/scifact.ts) unless --no-scifact.
 *
 *   npx tsx bench/answers.ts [--verbose] [--context] [--no-scifact]
 * --verbose prints each miss with its evidence, --context the context of wrong answers;
 * KBOX_EXTRACTIVE_MIN_EVIDENCE sets the threshold for the run (0 shows the whole answered/abstained trade-off).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import * as kbs from "../src/api/kbs.js";
import { waitIdle } from "../test/e2e/ingest-helpers.js";
import { OFFLINE, startTestDaemon } from "../test/helpers/daemon.js";
import { rawCall } from "../test/helpers/raw.js";
import { ANSWERABLE, DOCUMENTS, UNANSWERABLE } from "./answers-questions.js";

const verbose = process.argv.includes("--verbose");
const pick = (env: NodeJS.ProcessEnv, k: string) => (env[k] ? { [k]: env[k] } : {});
const norm = (s: string) => s.replace(/\s+/g, " ");
const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)} %`;

const d = await startTestDaemon({ env: { ...OFFLINE, ...pick(process.env, "KBOX_EXTRACTIVE_MIN_EVIDENCE") } });
try {
  const kbid = (await d.client.call(kbs.createKb, { body: { slug: "answers" } })).uuid;
  const rid = new Map<string, string>();
  const docs = DOCUMENTS.filter((p) => existsSync(p));
  const t0 = performance.now();
  for (const path of docs) {
    const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/upload`, readFileSync(path), {
      "content-type": "application/octet-stream",
      "x-filename": encodeURIComponent(basename(path)),
    });
    if (r.status !== 201) throw new Error(`upload ${path}: ${r.status} ${r.text}`);
    rid.set(basename(path), (r.json as { uuid: string }).uuid);
  }
  await waitIdle(d.client, kbid, 300_000);
  console.log(`${docs.length} documents ingested in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Check each answer against its document's extracted text: a question the text does not answer is not counted.
  const texts = new Map<string, string>();
  for (const [name, id] of rid) {
    const r = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${id}?show=extracted`);
    const files = (r.json as { data?: { files?: Record<string, { extracted?: { text?: { text?: string } } }> } }).data?.files;
    texts.set(name, norm(Object.values(files ?? {})[0]?.extracted?.text?.text ?? ""));
  }
  const questions = ANSWERABLE.filter((a) => {
    const ok = a.answer.test(texts.get(a.doc) ?? "");
    if (!ok) console.log(`not verified in ${a.doc} (left out): ${a.q}`);
    return ok;
  });

  const times: number[] = [];
  async function ask(query: string) {
    const start = performance.now();
    const r = await rawCall(
      d.client,
      "POST",
      `/api/v1/kb/${kbid}/ask`,
      { query, features: ["keyword"], citations: true, debug: true },
      { "x-synchronous": "true" },
    );
    times.push(performance.now() - start);
    return r.json as {
      answer: string;
      status: string;
      citations: Record<string, unknown>;
      evidence?: number;
      prompt_context?: string[];
    };
  }

  const evidences = { right: [] as number[], off: [] as number[], empty: 0 };
  let answered = 0;
  let cited = 0;
  let wrong = 0;
  for (const a of questions) {
    const r = await ask(a.q);
    const right = r.status === "success" && a.answer.test(norm(r.answer));
    const cites = Object.keys(r.citations ?? {}).some((id) => id.startsWith(rid.get(a.doc) ?? "-"));
    if (right) answered++;
    // An abstention whose answer would have been right is not known here: the trade-off counts it as not answered.
    if (right) evidences.right.push(r.evidence ?? 1);
    if (right && cites) cited++;
    if (r.status === "success" && !right) wrong++;
    if (verbose && !(right && cites))
      console.log(
        `${right ? "UNCITED" : r.status === "success" ? "WRONG" : "ABSTAINED"} (evidence ${r.evidence?.toFixed(2)})  ${a.q}\n    → ${norm(r.answer).slice(0, 200)}`,
      );
    // DUMP=<part of a question>: its context, as JSON, in /tmp/answers-context.json.
    if (process.env.DUMP && a.q.includes(process.env.DUMP))
      writeFileSync("/tmp/answers-context.json", JSON.stringify(r.prompt_context));
    if (process.argv.includes("--context") && !right)
      for (const c of r.prompt_context ?? []) console.log(`      | ${norm(c).slice(0, 150)}`);
  }
  let abstained = 0;
  for (const q of UNANSWERABLE) {
    const r = await ask(q);
    const ok = r.status === "no_context" || r.status === "no_retrieval_data";
    if (r.evidence === undefined) evidences.empty++;
    else evidences.off.push(r.evidence);
    if (ok) abstained++;
    else if (verbose) console.log(`ANSWERED (evidence ${r.evidence?.toFixed(2)})  ${q}\n    → ${norm(r.answer).slice(0, 200)}`);
  }
  // Calibration: how the extractive threshold trades answers for abstentions on this evaluation.
  const rightEv = evidences.right;
  const offEv = evidences.off;
  const line = (t: number) =>
    `  ${t.toFixed(2)}: answered ${pct(rightEv.filter((e) => e >= t).length, questions.length)}, abstained ${pct(offEv.filter((e) => e < t).length + evidences.empty, UNANSWERABLE.length)}`;
  console.log(
    `evidence (threshold ${process.env.KBOX_EXTRACTIVE_MIN_EVIDENCE ?? "0.65"}): right answers at threshold → abstention`,
  );
  for (const t of [0.4, 0.5, 0.55, 0.6, 0.65, 0.7]) console.log(line(t));
  const p50 = [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)];
  console.log(`\n| answered | abstained | cited | p50 |`);
  console.log(`|---|---|---|---|`);
  console.log(
    `| ${pct(answered, questions.length)} (${answered}/${questions.length}) | ${pct(abstained, UNANSWERABLE.length)} (${abstained}/${UNANSWERABLE.length}) | ${pct(cited, answered)} (${cited}/${answered}) | ${p50.toFixed(0)} ms |`,
  );
  console.log(`wrong answers (answered, not right): ${wrong}; right answers abstained: ${questions.length - answered - wrong}`);
} finally {
  await d.stop();
}

if (!process.argv.includes("--no-scifact")) {
  const dir = process.env.SCIFACT_DIR ?? join(import.meta.dirname, "../../../shared/eval/scifact");
  if (!existsSync(dir)) console.log(`SciFact: no data at ${dir} (set SCIFACT_DIR)`);
  else {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "scifact.ts")], {
      env: { ...process.env, SCIFACT_DIR: dir },
      encoding: "utf8",
      timeout: 480_000,
    });
    const line = r.stdout.split("\n").find((l) => /keyword/i.test(l));
    console.log(`SciFact ${line?.trim() ?? `failed: ${r.stderr.slice(-300)}`}`);
  }
}

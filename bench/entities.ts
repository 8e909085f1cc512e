/**
 * Cost of entity extraction during ingestion, per paragraph: daemon/entities' fieldEntities (the
 * NLP families by compromise, the user's entities groups, sentence relations) over real English text
 * already on a Debian machine (licences), cut into paragraphs of about 500 characters like the splitter's.
 *   nice npx tsx bench/entities.ts [paragraphs=400] [group entities=200]
 */
import { existsSync, readFileSync } from "node:fs";
import { type EntityGroupDef, fieldEntities } from "../daemon/entities/index.js";

const N = Number(process.argv[2] ?? 400);
const G = Number(process.argv[3] ?? 200);
const SOURCES = [
  "/usr/share/common-licenses/GPL-3",
  "/usr/share/common-licenses/Apache-2.0",
  "/usr/share/common-licenses/MPL-2.0",
];

function paragraphs(): string[] {
  const text = SOURCES.filter((p) => existsSync(p))
    .map((p) => readFileSync(p, "utf8"))
    .join("\n\n");
  const out: string[] = [];
  let cur = "";
  for (const block of text.split(/\n\s*\n/)) {
    cur = cur ? `${cur} ${block.replace(/\s+/g, " ").trim()}` : block.replace(/\s+/g, " ").trim();
    if (cur.length >= 400) {
      out.push(cur.slice(0, 600));
      cur = "";
    }
  }
  return out;
}

const paras = paragraphs();
if (!paras.length) throw new Error(`none of ${SOURCES.join(", ")} is on this machine`);
const sample = Array.from({ length: N }, (_, i) => paras[i % paras.length]);
const chars = sample.reduce((n, p) => n + p.length, 0);
const group: EntityGroupDef = {
  id: "TERMS",
  entities: Object.fromEntries(
    Array.from({ length: G }, (_, i) => [`t${i}`, { value: `term${i}`, represents: [`synonym${i}`] }]).concat([
      ["lic", { value: "licence", represents: ["license", "licensor"] }],
    ]),
  ),
};

function run(label: string, groups: EntityGroupDef[]) {
  let offset = 0;
  const units = [
    {
      split: "",
      lang: "en",
      paragraphs: sample.map((text) => {
        const p = { start: offset, end: offset + text.length, text };
        offset += text.length + 2;
        return p;
      }),
    },
  ];
  fieldEntities(
    units.slice(0, 1).map((u) => ({ ...u, paragraphs: u.paragraphs.slice(0, 5) })),
    groups,
    "r",
    () => "p",
  ); // warm up
  const t0 = performance.now();
  // Every paragraph is read here (no budget): the figure is the cost per paragraph.
  const f = fieldEntities(units, groups, "r", (s, a, b) => `r/t/body${s}/${a}-${b}`, Number.POSITIVE_INFINITY);
  const ms = performance.now() - t0;
  const found = Object.keys(f.metadata.ner).length;
  console.log(
    `${label.padEnd(34)} ${(ms / N).toFixed(2)} ms/paragraph  ${((chars / ms) * 1000).toFixed(0)} chars/s  ` +
      `${found} distinct entities, ${f.relations.length} relations`,
  );
}

console.log(`${N} paragraphs, ${Math.round(chars / N)} chars on average`);
run("NLP families only", []);
run(`NLP families + a group of ${G + 1}`, [group]);

import * as kbs from "../../../src/api/kbs.js";
import * as resources from "../../../src/api/resources.js";
import type { ParagraphRow } from "../../../daemon/store/paragraphs.js";
import type { TestDaemon } from "../../helpers/daemon.js";

/** A document for the ask tests: a title and a body of blank-line separated paragraphs. */
export interface Doc {
  slug: string;
  title: string;
  body: string;
  summary?: string;
  labels?: [string, string][];
  origin?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  conversation?: { ident: string; who: string; text: string }[];
}

/** The small corpus most ask tests use. */
export const CORPUS: Doc[] = [
  {
    slug: "shipping",
    title: "Release planning",
    summary: "How and when releases ship.",
    body:
      "The team ships a new release every Friday afternoon. Releases are cut from the main branch after the tests pass.\n\n" +
      "Hotfixes can ship on any weekday. They need approval from the on-call engineer.\n\n" +
      "The release notes are written by Maria Lopez and published on the blog.",
    labels: [["topic", "planning"]],
    origin: { url: "https://example.com/releases", tags: ["process"] },
    extra: { owner: "platform" },
  },
  {
    slug: "office",
    title: "Office guide",
    body:
      "The office is located in Lisbon, on Rua Augusta 120. It opens at 8:30 every morning.\n\n" +
      "Visitors must sign in at the front desk. The coffee machine is on the second floor.\n\n" +
      "There are 42 desks and 6 meeting rooms in the building.",
  },
  {
    slug: "cats",
    title: "Cat care",
    body:
      "Cats sleep between 12 and 16 hours a day. Kittens sleep even more.\n\n" +
      "Cats purr because it calms them and helps healing. Purring also signals contentment.",
  },
];

function paragraphs(text: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const re = /[^\n]+(?:\n(?!\n)[^\n]+)*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  return out;
}

/** Create a KB and its resources through the API; paragraphs come from ingestion when the daemon has it. */
export async function seedKb(d: TestDaemon, slug: string, docs: Doc[] = CORPUS, learning?: Record<string, unknown>): Promise<{ kbid: string; rids: Record<string, string> }> {
  const { uuid: kbid } = await d.client.call(kbs.createKb, { body: { slug, learning_configuration: learning as never } });
  const rids: Record<string, string> = {};
  for (const doc of docs) {
    const body: Record<string, unknown> = {
      slug: doc.slug,
      title: doc.title,
      summary: doc.summary,
      texts: { body: { body: doc.body, format: "PLAIN" } },
      usermetadata: doc.labels ? { classifications: doc.labels.map(([labelset, label]) => ({ labelset, label })) } : undefined,
      origin: doc.origin,
      extra: doc.extra ? { metadata: doc.extra } : undefined,
    };
    if (doc.conversation) {
      body.conversations = {
        chat: { messages: doc.conversation.map((m) => ({ ident: m.ident, who: m.who, content: { text: m.text, format: "PLAIN" } })) },
      };
    }
    const { uuid } = await d.client.call(resources.createResource, { params: { kbid }, body: body as never });
    rids[doc.slug] = uuid;
    await indexDoc(d, kbid, uuid, doc);
  }
  return { kbid, rids };
}

/** Index a document's paragraphs the way the ingestion queue writes them (until ingestion is wired in). */
async function indexDoc(d: TestDaemon, kbid: string, rid: string, doc: Doc): Promise<void> {
  const store = await d.daemon.services.store.kb(kbid);
  const row = (field: string, split: string, p: { start: number; end: number; text: string }, idx: number, kind = "TEXT"): ParagraphRow => ({
    id: `${rid}/${field}${split ? `/${split}` : ""}/${p.start}-${p.end}`,
    rid,
    field,
    field_type: { t: "text", a: "generic", c: "conversation" }[field[0]] ?? "text",
    split,
    start: p.start,
    end: p.end,
    page: 0,
    idx,
    kind,
    is_table: false,
    labels: [],
    facets: (doc.labels ?? []).map(([ls, l]) => `/l/${ls}/${l}`),
    text: p.text,
    lang: "en",
    path: "",
    created: Date.now(),
    modified: Date.now(),
    hidden: false,
    groups: [],
    hash: p.text,
  });
  await store.paragraphs.replaceField(rid, "a/title", [row("a/title", "", { start: 0, end: doc.title.length, text: doc.title }, 0, "TITLE")]);
  await store.paragraphs.replaceField(rid, "t/body", paragraphs(doc.body).map((p, i) => row("t/body", "", p, i)));
  if (doc.conversation) {
    const rows = doc.conversation.map((m, i) => row("c/chat", m.ident, { start: 0, end: m.text.length, text: m.text }, i));
    await store.paragraphs.replaceField(rid, "c/chat", rows);
  }
  await store.paragraphs.idle();
}

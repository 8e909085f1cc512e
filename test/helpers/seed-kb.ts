import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import type { TestDaemon } from "./daemon.js";

// Tests that use these start their daemon with OFFLINE (test/helpers/daemon.ts): keyword retrieval
// unless a test registers an embedder.

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

/** Create a KB and its resources through the API and wait until the daemon has ingested them. */
export async function seedKb(
  d: TestDaemon,
  slug: string,
  docs: Doc[] = CORPUS,
  learning?: Record<string, unknown>,
): Promise<{ kbid: string; rids: Record<string, string> }> {
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
        chat: {
          messages: doc.conversation.map((m) => ({ ident: m.ident, who: m.who, content: { text: m.text, format: "PLAIN" } })),
        },
      };
    }
    const { uuid } = await d.client.call(resources.createResource, { params: { kbid }, body: body as never });
    rids[doc.slug] = uuid;
  }
  // Real ingestion: extraction, splitting and indexing by the daemon's processing queue.
  await d.daemon.services.processing.idle();
  const store = await d.daemon.services.store.kb(kbid);
  await store.idle();
  return { kbid, rids };
}

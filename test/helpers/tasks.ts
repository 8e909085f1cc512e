import * as find from "../../src/api/find.js";
import * as resources from "../../src/api/resources.js";
import * as tasks from "../../src/api/tasks.js";
import type { KboxClient } from "../../src/client/client.js";

/** Labels pets and work topics offline, by the keywords and examples given. */
export const LABELER = {
  name: "topics",
  on: 0,
  operations: [
    {
      label: {
        ident: "auto",
        labels: [
          { label: "pets", examples: ["cat", "kitten", "dog"] },
          { label: "work", examples: ["release", "hotfix", "office", "desk"] },
        ],
      },
    },
  ],
};

/** LABELER writing its labels to a labelset of its own, "fresh". */
export const FRESH = { ...LABELER, operations: [{ label: { ...LABELER.operations[0].label, ident: "fresh" } }] };

/** A task's record as inspect answers it (its configuration, or its request before it ran). */
export async function taskRecord(client: KboxClient, kbid: string, id: string) {
  const r = await client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } });
  return r.config ?? r.request;
}

/** Create a resource with one plain text field; its id. */
export async function addText(client: KboxClient, kbid: string, slug: string, text: string): Promise<string> {
  const r = await client.call(resources.createResource, {
    params: { kbid },
    body: { slug, texts: { body: { body: text, format: "PLAIN" } } } as never,
  });
  return r.uuid;
}

/** Call `fn` every 50 ms until `ok` holds or `ms` have passed; its last value. */
export async function poll<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The resources FRESH labelled "pets" (found by "kitten"), sorted. */
export async function freshPets(client: KboxClient, kbid: string): Promise<string[]> {
  const f = await client.call(find.find, {
    params: { kbid },
    body: {
      query: "kitten",
      top_k: 50,
      features: ["keyword"],
      filter_expression: { paragraph: { prop: "label", labelset: "fresh", label: "pets" } },
    } as never,
  });
  return Object.keys(f.resources).sort();
}

import type { AskItem } from "../../src/api/ask.js";
import { readAll } from "../../src/client/transport.js";
import type { TestDaemon } from "./daemon.js";

/** POST an ask over the daemon's socket; returns status, headers and the parsed NDJSON items (or JSON). */
export async function ask(
  d: TestDaemon,
  kbid: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  path = "ask",
) {
  const res = await d.client.raw({
    method: "POST",
    path: `/api/v1/kb/${kbid}/${path}`,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = (await readAll(res.body)).toString("utf8");
  const isNdjson = res.headers["content-type"] === "application/x-ndjson";
  const items = isNdjson
    ? text
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { item: AskItem }).item)
    : [];
  const json = isNdjson ? undefined : (JSON.parse(text || "null") as Record<string, unknown>);
  return { status: res.status, headers: res.headers, items, json, text };
}

/** The concatenated answer of a stream. */
export const answerOf = (items: AskItem[]) =>
  items
    .filter((i): i is Extract<AskItem, { type: "answer" }> => i.type === "answer")
    .map((i) => i.text)
    .join("");

export const itemOf = <T extends AskItem["type"]>(items: AskItem[], type: T) =>
  items.find((i) => i.type === type) as Extract<AskItem, { type: T }> | undefined;

/** The id of the retrieved paragraph whose text contains `needle`. */
export function paragraphWith(items: AskItem[], needle: string): string | undefined {
  const r = itemOf(items, "retrieval")?.results;
  for (const res of Object.values(r?.resources ?? {})) {
    for (const f of Object.values(res.fields))
      for (const p of Object.values(f.paragraphs)) if (p.text.includes(needle)) return p.id;
  }
  return undefined;
}

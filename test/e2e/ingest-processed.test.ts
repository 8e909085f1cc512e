import { describe, expect, it } from "vitest";
import type { ProcessedEvent } from "../../daemon/ingest/queue.js";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { startTestDaemon } from "../helpers/daemon.js";

describe("ProcessingQueue.onProcessed with batched ingestion", () => {
  it("tells listeners once per resource run, after its records are written, when many resources share a batch", async () => {
    const d = await startTestDaemon();
    try {
      const kb = await d.client.call(kbs.createKb, { body: { slug: "processed" } });
      const store = await d.daemon.services.store.kb(kb.uuid);
      const events: ProcessedEvent[] = [];
      const statusAtEvent = new Map<string, string | undefined>();
      d.daemon.services.processing.onProcessed((e) => {
        events.push(e);
        statusAtEvent.set(e.rid, store.resources.get(e.rid)?.metadata.status);
      });
      const rids = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          d.client
            .call(api.createResource, {
              params: { kbid: kb.uuid },
              body: { title: `doc ${i}`, texts: { body: { body: `Paragraph one of document ${i}.\n\nParagraph two.` } } },
            })
            .then((r) => r.uuid),
        ),
      );
      await d.daemon.services.processing.idle();
      await new Promise((r) => setTimeout(r, 50)); // listeners run after the queue has moved on
      expect(events.map((e) => e.rid).sort()).toEqual([...rids].sort()); // each once
      for (const e of events) {
        expect(e.kbid).toBe(kb.uuid);
        expect(e.fields["t/body"]).toBe("PROCESSED");
        expect(e.paragraphs).toBeGreaterThanOrEqual(2);
        expect(statusAtEvent.get(e.rid)).toBe("PROCESSED"); // the records were written before
      }
    } finally {
      await d.stop();
    }
  }, 60_000);
});

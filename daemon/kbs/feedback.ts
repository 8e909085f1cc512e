import { randomUUID } from "node:crypto";
import type { Feedback, FeedbackRequest } from "../../src/api/feedback.js";
import { KbDocs } from "./kb-docs.js";
import type { KbService } from "./service.js";

type Stored = Feedback & { id: string };

/** Feedback on answers, kept per knowledge box against each ask's learning id. */
export class FeedbackService {
  private readonly docs: KbDocs<Stored>;
  constructor(kbs: KbService) {
    this.docs = new KbDocs(kbs, "feedback");
  }

  async add(kbid: string, body: FeedbackRequest): Promise<Feedback> {
    const created = new Date().toISOString();
    const id = `${created}/${randomUUID()}`;
    const fb: Feedback = { ...body, created };
    await (await this.docs.of(kbid)).put(id, { id, ...fb });
    return fb;
  }

  /** Every feedback (of one learning id when given), oldest first. */
  async list(kbid: string, ident?: string): Promise<Feedback[]> {
    return [...(await this.docs.of(kbid)).values()]
      .filter((f) => !ident || f.ident === ident)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(({ id: _id, ...f }) => f);
  }
}

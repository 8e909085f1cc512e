import type { KnowledgeBoxSynonyms } from "../../src/api/synonyms.js";
import { KbDocs } from "./kb-docs.js";
import type { KbService } from "./service.js";

type Stored = { id: string; synonyms: Record<string, string[]> };
const ID = "custom";

/** A knowledge box's custom synonyms: keyword queries expand each term to its synonyms (daemon/search). */
export class SynonymService {
  private readonly docs: KbDocs<Stored>;
  constructor(kbs: KbService) {
    this.docs = new KbDocs(kbs, "custom_synonyms");
  }

  async get(kbid: string): Promise<KnowledgeBoxSynonyms> {
    return { synonyms: (await this.docs.of(kbid)).get(ID)?.synonyms ?? {} };
  }

  async set(kbid: string, body: KnowledgeBoxSynonyms): Promise<void> {
    await (await this.docs.of(kbid)).put(ID, { id: ID, synonyms: body.synonyms });
  }

  async clear(kbid: string): Promise<void> {
    const t = await this.docs.of(kbid);
    if (t.has(ID)) await t.delete(ID);
  }
}

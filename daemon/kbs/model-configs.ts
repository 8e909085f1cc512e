import { randomUUID } from "node:crypto";
import type { ModelConfigBody } from "../../src/api/nua-models.js";
import { badRequest, KboxError, notFound } from "../errors.js";
import type { ModelConfigDoc, Store } from "../store/index.js";
import type { LearningService } from "./learning.js";
import type { KbService } from "./service.js";

/** What a caller may do: an untrusted (TCP) caller may not point the daemon at a model endpoint or file. */
interface Opts {
  untrusted: boolean;
}

export const NO_BEDROCK =
  "Bedrock roles (assume_role) are not served by kbox: it runs its own models and configured OpenAI-compatible endpoints and holds no AWS account or role to assume; point an openai:<model> endpoint at a Bedrock-compatible gateway instead";

const mask = (keys: Record<string, unknown> | null) =>
  keys
    ? Object.fromEntries(
        Object.entries(keys).map(([k, v]) => [
          k,
          v && typeof v === "object" ? Object.fromEntries(Object.keys(v).map((f) => [f, "********"])) : "********",
        ]),
      )
    : null;

/**
 * An account's model configuration records (`/default_models`) mapped onto kbox's models: a record
 * names a model kbox can run (`default_model_id`: extractive, openai:<model>[@url], gguf:…, predict:…)
 * with its keys and prompts, and is applied to the boxes it lists (their generative model, user keys
 * and prompts), on create and on each update. Keys are stored as given and shown masked.
 */
export class ModelConfigs {
  constructor(
    private readonly store: Store,
    private readonly kbs: KbService,
    private readonly learning: LearningService,
    /** Throws (422) when kbox cannot run the model. */
    private readonly check: (model: string, untrusted: boolean) => void,
    /** The account of boxes made before accounts existed. */
    private readonly defaultAccount: string,
  ) {}

  list(account: string) {
    return [...this.store.zone.modelConfigs.values()]
      .filter((d) => d.account_id === account)
      .sort((a, b) => a.created.localeCompare(b.created))
      .map((d) => this.summary(d));
  }

  get(account: string, id: string) {
    const d = this.require(account, id);
    return { ...this.summary(d), user_keys: mask(d.user_keys), user_prompts: d.user_prompts };
  }

  async create(account: string, body: ModelConfigBody, o: Opts) {
    if (!body.default_model_id) throw invalidModel(undefined);
    const doc: ModelConfigDoc = {
      id: randomUUID().replace(/-/g, ""),
      account_id: account,
      default_model_id: body.default_model_id,
      description: body.description ?? null,
      assume_role: 0,
      kbids: [],
      user_keys: body.user_keys ?? null,
      user_prompts: body.user_prompts ?? null,
      created: new Date().toISOString(),
    };
    return this.save(this.merged(doc, body), o);
  }

  async update(account: string, id: string, body: ModelConfigBody, o: Opts) {
    return this.save(this.merged(this.require(account, id), body), o);
  }

  async delete(account: string, id: string): Promise<void> {
    this.require(account, id);
    await this.store.zone.modelConfigs.delete(id);
  }

  private merged(doc: ModelConfigDoc, body: ModelConfigBody): ModelConfigDoc {
    if (body.assume_role) throw badRequest(NO_BEDROCK);
    const next = { ...doc };
    if (body.default_model_id) next.default_model_id = body.default_model_id;
    if (body.description !== undefined) next.description = body.description;
    if (body.kbids) next.kbids = [...new Set(body.kbids)];
    if (body.user_keys !== undefined) next.user_keys = body.user_keys;
    if (body.user_prompts !== undefined) next.user_prompts = body.user_prompts;
    return next;
  }

  /** Check the model and the boxes (the account's own), apply the record to them, then keep it. */
  private async save(doc: ModelConfigDoc, o: Opts) {
    this.check(doc.default_model_id, o.untrusted);
    const boxes = doc.kbids.map((ref, i) => {
      const kb = this.kbs.list().find((k) => k.uuid === ref.toLowerCase() || k.slug === ref);
      if (!kb || (kb.account_id ?? this.defaultAccount) !== doc.account_id)
        throw new KboxError(422, [
          { type: "value_error", loc: ["body", "kbids", i], msg: `Knowledge box ${ref} not found in the account`, input: ref },
        ]);
      return kb.uuid;
    });
    for (const kbid of boxes)
      await this.learning.update(
        kbid,
        {
          generative_model: doc.default_model_id,
          ...(doc.user_keys ? { user_keys: doc.user_keys as never } : {}),
          ...(doc.user_prompts ? { user_prompts: doc.user_prompts } : {}),
        },
        "patch",
        o,
      );
    await this.store.zone.modelConfigs.put(doc.id, { ...doc, kbids: boxes });
    return this.summary({ ...doc, kbids: boxes });
  }

  private require(account: string, id: string): ModelConfigDoc {
    const d = this.store.zone.modelConfigs.get(id);
    if (!d || d.account_id !== account) throw notFound(`Model configuration ${id} not found`);
    return d;
  }

  private summary(d: ModelConfigDoc) {
    return {
      id: d.id,
      default_model_id: d.default_model_id,
      description: d.description,
      assume_role: d.assume_role,
      kbids: d.kbids,
    };
  }
}

function invalidModel(input: unknown) {
  return new KboxError(422, [{ type: "missing", loc: ["body", "default_model_id"], msg: "Field required", input }]);
}

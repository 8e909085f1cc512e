import { randomUUID } from "node:crypto";
import type { CreateGuardrailPolicy, GuardrailPolicy, UpdateGuardrailPolicy } from "../../src/api/guardrails.js";
import { KboxError, notFound } from "../errors.js";
import { type GeneratorSettings, resolveGenerator } from "../models/generate/registry.js";
import type { Generator } from "../models/generate/types.js";
import type { DocTable } from "../store/doc-table.js";
import type { GuardrailPolicyDoc, KbDoc, Store } from "../store/index.js";
import { evaluate, type PolicyVerdict } from "./evaluate.js";

export type { PolicyVerdict } from "./evaluate.js";

/** A violation found while screening a query (blocking or monitoring), for the activity log. */
export interface GuardrailViolation extends PolicyVerdict {
  account_id: string;
  kbid?: string;
  /** Where the query came from: ask, predict_query. */
  source: string;
  content: string;
  at: string;
}

/** The outcome of screening a query: the blocking verdict that stops it, if any, and every violation. */
export interface Screening {
  blocked?: PolicyVerdict;
  violations: PolicyVerdict[];
}

/**
 * Per-account guardrail policies (the spec's bounds), their evaluation, and the screening of ask and
 * predict queries against the enabled ones. Violations go to `report` (the daemon log, and the
 * knowledge box's activity log as `guardrail` events), awaited: a violation is recorded before the answer.
 */
export class GuardrailService {
  private constructor(
    private readonly table: DocTable<GuardrailPolicyDoc>,
    private readonly generation: GeneratorSettings,
    private readonly resolveAccount: (ref?: string) => string,
    private readonly report: (v: GuardrailViolation) => void | Promise<void>,
  ) {}

  static async open(
    store: Store,
    generation: GeneratorSettings,
    resolveAccount: (ref?: string) => string,
    report: (v: GuardrailViolation) => void | Promise<void>,
  ): Promise<GuardrailService> {
    return new GuardrailService(
      await store.metaTable<GuardrailPolicyDoc>("guardrail_policies"),
      generation,
      resolveAccount,
      report,
    );
  }

  /** The caller's account (the socket owner's is the default account). */
  accountOf(account: string | undefined): string {
    return this.resolveAccount(account);
  }

  list(ref: string): GuardrailPolicy[] {
    const account = this.resolveAccount(ref);
    return [...this.table.values()]
      .filter((p) => p.account_id === account)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  get(ref: string, id: string): GuardrailPolicy {
    const account = this.resolveAccount(ref);
    const p = this.table.get(id);
    if (!p || p.account_id !== account) throw notFound(`Guardrail policy ${id} not found`);
    return p;
  }

  async create(ref: string, body: CreateGuardrailPolicy): Promise<GuardrailPolicy> {
    const account = this.resolveAccount(ref);
    const now = new Date().toISOString();
    const doc: GuardrailPolicyDoc = {
      id: randomUUID(),
      account_id: account,
      name: body.name,
      description: body.description ?? null,
      instruction: body.instruction,
      query: body.query,
      target: "QUERY",
      enabled: body.enabled,
      blocking: body.blocking,
      created_at: now,
      updated_at: now,
    };
    await this.table.put(doc.id, doc);
    return doc;
  }

  async update(account: string, id: string, body: UpdateGuardrailPolicy): Promise<GuardrailPolicy> {
    const cur = this.get(account, id);
    const next: GuardrailPolicyDoc = { ...cur, updated_at: new Date().toISOString() };
    for (const k of ["name", "instruction", "query", "enabled", "blocking"] as const) {
      const v = body[k];
      if (v !== undefined && v !== null) (next as unknown as Record<string, unknown>)[k] = v;
    }
    if (body.description !== undefined) next.description = body.description;
    await this.table.put(id, next);
    return next;
  }

  async delete(account: string, id: string): Promise<void> {
    this.get(account, id);
    await this.table.delete(id);
  }

  /** The generator that judges content: the knowledge box's model, else the daemon's default (extractive: offline). */
  generator(kb?: KbDoc): Generator | undefined {
    const lc = kb?.learning_configuration;
    try {
      return resolveGenerator(lc?.generative_model, {
        userKeys: lc?.user_keys as Record<string, unknown>,
        settings: this.generation,
        configured: lc?.generative_model,
      });
    } catch {
      return undefined; // a configured model that cannot be used: judged offline
    }
  }

  /** Predict Guardrail: content against a stored policy, an inline one, or (neither) every enabled policy of the account. */
  async predict(
    account: string,
    body: { content: string; policy_id?: string | null; policy?: CreateGuardrailPolicy | null },
    signal?: AbortSignal,
  ): Promise<{ flagged: boolean; score: number; threshold: number; policy_id: string | null; method: string; reason: string }> {
    const policies = body.policy_id
      ? [this.get(account, body.policy_id)]
      : body.policy
        ? [{ ...body.policy, id: "inline" }]
        : this.list(account).filter((p) => p.enabled);
    const verdicts = await evaluate(body.content, policies, this.generator(), signal);
    const worst = verdicts.sort((a, b) => Number(b.flagged) - Number(a.flagged) || b.score - a.score)[0];
    if (!worst) return { flagged: false, score: 0, threshold: 0.5, policy_id: null, method: "none", reason: "no enabled policy" };
    return {
      flagged: worst.flagged,
      score: worst.score,
      threshold: worst.threshold,
      policy_id: worst.policy_id === "inline" ? null : worst.policy_id,
      method: worst.method,
      reason: worst.error ? `${worst.reason}: ${worst.error}` : worst.reason,
    };
  }

  /**
   * Screen a query against the enabled policies of its account: each violation is reported; the first
   * blocking one (a blocking policy's evaluation failure too) stops the query.
   */
  async screen(query: string, o: { kb?: KbDoc; account?: string; source: string; signal?: AbortSignal }): Promise<Screening> {
    const account = this.resolveAccount(o.account ?? o.kb?.account_id);
    const enabled = this.list(account).filter((p) => p.enabled);
    if (!enabled.length || !query) return { violations: [] };
    const verdicts = await evaluate(query, enabled, this.generator(o.kb), o.signal);
    const violations = verdicts.filter((v) => v.flagged || v.error);
    const at = new Date().toISOString();
    for (const v of violations)
      await this.report({ ...v, account_id: account, kbid: o.kb?.uuid, source: o.source, content: query, at });
    return { blocked: violations.find((v) => v.blocking && (v.flagged || v.error)), violations };
  }

  /** Screen a query (predict query, predict chat) and refuse it (403 naming the policy) when a blocking policy stops it. */
  async enforce(query: string, o: { kb?: KbDoc; account?: string; signal?: AbortSignal; source?: string }): Promise<void> {
    const { blocked } = await this.screen(query, { ...o, source: o.source ?? "predict_query" });
    if (blocked)
      throw new KboxError(
        403,
        `Blocked by guardrail policy "${blocked.name}" (${blocked.policy_id}): ${blocked.error ? `its evaluation failed (${blocked.error})` : blocked.reason}`,
      );
  }
}

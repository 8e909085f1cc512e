import type { Hono } from "hono";
import * as api from "../../../src/api/nua-predict.js";
import { remiScores, rephraseText, rerankTexts, sentenceVector, summarizeTexts } from "../../ask/predict-ops.js";
import type { Principal } from "../../auth/principal.js";
import { clientOf } from "../../nua/caller.js";
import { metered } from "../../nua/meter.js";
import { predictTokens } from "../../nua/query.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Predict operations of the understanding API served from kbox's own models and analysis (metered for NUA keys). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const client = (p: Parameters<typeof clientOf>[0]) => clientOf(p, s.nua, s.store, s.accounts.default.id);
  const meter = <T>(principal: Principal, body: unknown, run: () => Promise<T>) =>
    metered(s.nuaUsage, principal, client, "predict", body, run);
  const caller = (principal: Principal, params: object, model: string | undefined, signal: AbortSignal) => ({
    kbid: "kbid" in params ? String(params.kbid) : undefined,
    model,
    untrusted: principal.via !== "socket",
    signal,
  });
  mount(app, api.predictTokens, async ({ query, principal }) => meter(principal, query, () => predictTokens(query.text)));
  mount(app, api.predictTokensKb, async ({ query, params, principal }) =>
    meter(principal, query, () => s.predictProxy.tokens(params.kbid, query.text)),
  );
  mount(app, { any: api.predictSummarize, kb: api.predictSummarizeKb }, async ({ body, query, params, principal, signal }) =>
    meter(principal, body, () => summarizeTexts(s.predict, body, caller(principal, params, query.model, signal))),
  );
  // The box of the /{kbid} forms must exist, though scoring uses no data of it.
  const known = (params: object) => {
    if ("kbid" in params) s.kbs.require(String(params.kbid), "Knowledge Box not found");
  };
  mount(app, { any: api.predictRerank, kb: api.predictRerankKb }, async ({ body, params, principal, signal }) => {
    known(params);
    return meter(principal, body, async () => rerankTexts(await s.models.reranker(), body, signal));
  });
  mount(app, { any: api.predictRephrase, kb: api.predictRephraseKb }, async ({ body, query, params, principal, signal }) =>
    meter(principal, body, () => rephraseText(s.predict, body, caller(principal, params, query.model, signal))),
  );
  mount(app, { any: api.predictRemi, kb: api.predictRemiKb }, async ({ body, params, principal }) => {
    known(params);
    return meter(principal, body, async () => remiScores(body));
  });
  mount(app, api.predictSentence, async ({ query, principal }) =>
    meter(principal, query, () => sentenceVector(s.predict, query.text, query.model)),
  );
  mount(app, api.predictSentenceKb, async ({ query, params, principal }) =>
    meter(principal, query, async () => {
      const r = await sentenceVector(s.predict, query.text, undefined, params.kbid);
      return { data: r.data, time: r.time, vectors: { [r.model]: r.data } };
    }),
  );
}

import type { Hono } from "hono";
import * as api from "../../../src/api/predict.js";
import { chatCompletion, modelList, modelRecord, predictChat, sentences } from "../../ask/predict-answers.js";
import type { Principal } from "../../auth/principal.js";
import { clientOf } from "../../nua/caller.js";
import { metered } from "../../nua/meter.js";
import { analyseQuery } from "../../nua/query.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The understanding API served locally (hosted paths, plus /v1/* for plain OpenAI clients); NUA keys are metered. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const p = s.predict;
  const client = (principal: Principal) => clientOf(principal, s.nua, s.store, s.accounts.default.id);
  const meter = <T>(principal: Principal, kind: "chat" | "predict", body: unknown, run: () => Promise<T>) =>
    metered(s.nuaUsage, principal, client, kind, body, run);
  // Registered before the /chat/:kbid form so that "completions" is not taken for a kbid.
  mount(
    app,
    { hosted: api.chatCompletions, openai: api.openaiChatCompletions, compat: api.compatChatCompletions },
    async ({ body, headers, signal, principal }) =>
      meter(principal, "chat", body, async () => {
        // The last user message is screened like a predict chat question: a blocking violation is a 403.
        const text = lastUserText(body.messages);
        if (text) await s.guardrails.enforce(text, { account: principal.account, signal, source: "chat_completions" });
        return chatCompletion(
          p,
          body,
          headers["x-understanding-max-output-tokens"] ?? headers["x-nua-max-output-tokens"],
          signal,
          principal.via !== "socket",
        );
      }),
  );
  mount(app, { any: api.predictChat, kb: api.predictChatKb }, async ({ body, query, headers, params, signal, principal }) =>
    meter(principal, "chat", body, async () => {
      // The question is screened like a predict query: a blocking violation is a 403 before anything is generated.
      const kbid = "kbid" in params ? params.kbid : undefined;
      const where = kbid ? { kb: s.kbs.require(kbid) } : { account: principal.account };
      await s.guardrails.enforce(body.question, { ...where, signal, source: "predict_chat" });
      return predictChat(p, body, {
        untrusted: principal.via !== "socket",
        model: query.model,
        kbid,
        synchronous: headers["x-synchronous"],
        signal,
      });
    }),
  );
  mount(
    app,
    { hosted: api.predictSentences, openai: api.openaiEmbeddings, compat: api.compatEmbeddings },
    async ({ body, principal }) => meter(principal, "predict", body, () => sentences(p, body)),
  );
  mount(app, api.predictSentencesKb, async ({ params, body, principal }) =>
    meter(principal, "predict", body, () => sentences(p, body, params.kbid)),
  );
  /** Query analysis: the vector (PredictService), then language, stop words, entities and the rephrased query. */
  const query = async (
    q: { text?: unknown; rephrase?: unknown; rephrase_prompt?: unknown; generative_model?: unknown },
    kbid: string | undefined,
    signal: AbortSignal,
    principal: Principal,
  ) => {
    const text = typeof q.text === "string" ? q.text : "";
    // Guardrail policies screen query texts first: a blocking violation is a 403 naming the policy.
    await s.guardrails.enforce(text, kbid ? { kb: s.kbs.require(kbid), signal } : { account: principal.account, signal });
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    const rephrased =
      q.rephrase === true || q.rephrase === "true"
        ? await p.rephrase(text, {
            prompt: str(q.rephrase_prompt),
            model: str(q.generative_model),
            kbid,
            untrusted: principal.via !== "socket",
            signal,
          })
        : undefined;
    return analyseQuery(await p.query(text, kbid), text, rephrased);
  };
  mount(app, api.predictQuery, async ({ body, principal, signal }) =>
    meter(principal, "predict", body, () => query(body, undefined, signal, principal)),
  );
  mount(app, api.predictQueryKb, async ({ params, body, principal, signal }) =>
    meter(principal, "predict", body, () => query(body, params.kbid, signal, principal)),
  );
  mount(app, api.predictQueryGet, async ({ query: q, principal, signal }) =>
    meter(principal, "predict", q, () => query(q, undefined, signal, principal)),
  );
  mount(app, { hosted: api.listModels, openai: api.openaiModels, compat: api.compatModels }, async () => modelList(p));
  mount(app, { hosted: api.getModel, compat: api.compatModel }, async ({ params }) => modelRecord(p, params.model_id));
}

/** The text of the last user message of an OpenAI-style chat (string content, or its text parts joined). */
function lastUserText(messages: api.ChatCompletionBody["messages"]): string {
  const m = messages.findLast((x) => x.role === "user");
  if (!m || m.content == null) return "";
  if (typeof m.content === "string") return m.content;
  return m.content
    .map((part) => part.text ?? "")
    .filter(Boolean)
    .join("\n");
}

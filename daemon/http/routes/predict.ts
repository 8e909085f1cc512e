import type { Hono } from "hono";
import * as api from "../../../src/api/predict.js";
import { chatCompletion, modelList, modelRecord, predictChat, sentences } from "../../ask/predict-answers.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The understanding API served locally (hosted paths, plus /v1/* for plain OpenAI clients). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const p = s.predict;
  // Registered before the /chat/:kbid form so that "completions" is not taken for a kbid.
  mount(app, { hosted: api.chatCompletions, openai: api.openaiChatCompletions }, async ({ body, headers, signal, principal }) =>
    chatCompletion(
      p,
      body,
      headers["x-understanding-max-output-tokens"] ?? headers["x-nua-max-output-tokens"],
      signal,
      principal.via !== "socket",
    ),
  );
  mount(app, { any: api.predictChat, kb: api.predictChatKb }, async ({ body, query, headers, params, signal, principal }) =>
    predictChat(p, body, {
      untrusted: principal.via !== "socket",
      model: query.model,
      kbid: "kbid" in params ? params.kbid : undefined,
      synchronous: headers["x-synchronous"],
      signal,
    }),
  );
  mount(app, { hosted: api.predictSentences, openai: api.openaiEmbeddings }, async ({ body }) => sentences(p, body));
  mount(app, api.predictSentencesKb, async ({ params, body }) => sentences(p, body, params.kbid));
  // Guardrail policies screen query texts first: a blocking violation is a 403 naming the policy.
  const g = s.guardrails;
  mount(app, api.predictQuery, async ({ body, principal, signal }) =>
    g.enforce(body.text ?? "", { account: principal.account, signal }).then(() => p.query(body.text ?? "")),
  );
  mount(app, api.predictQueryKb, async ({ params, body, signal }) =>
    g.enforce(body.text ?? "", { kb: s.kbs.require(params.kbid), signal }).then(() => p.query(body.text ?? "", params.kbid)),
  );
  mount(app, api.predictQueryGet, async ({ query, principal, signal }) =>
    g.enforce(String(query.text ?? ""), { account: principal.account, signal }).then(() => p.query(String(query.text ?? ""))),
  );
  mount(app, { hosted: api.listModels, openai: api.openaiModels }, async () => modelList(p));
  mount(app, api.getModel, async ({ params }) => modelRecord(p, params.model_id));
}

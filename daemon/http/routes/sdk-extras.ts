import type { Hono } from "hono";
import * as fb from "../../../src/api/feedback.js";
import * as rt from "../../../src/api/retrieval.js";
import * as sm from "../../../src/api/summarize.js";
import * as tr from "../../../src/api/training.js";
import { generativeProviders, trainsetPartitions } from "../../kbs/training.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Feedback on answers, training set partitions and generative providers (routes the upstream SDK calls). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, fb.sendFeedback, async ({ params, body }) => {
    await s.feedback.add(params.kbid, body);
    await s.activity.feedback(params.kbid, body);
    return null;
  });
  mount(app, fb.listFeedback, async ({ params, query }) => ({ feedback: await s.feedback.list(params.kbid, query.ident) }));
  mount(app, sm.summarize, async ({ params, body, signal, principal }) =>
    s.summarize.summarize(params.kbid, body, { signal, untrusted: principal.via !== "socket" }),
  );
  mount(app, rt.retrieve, async (i) =>
    s.activity.track(
      i.params.kbid,
      "retrieve",
      i,
      () => s.retrieval.retrieve(i.params.kbid, i.body, { principal: i.principal, signal: i.signal }),
      (_r, ms) => ({
        question: "query" in i.body.query && typeof i.body.query.query === "string" ? i.body.query.query : null,
        retrieval_time: ms / 1000,
        user_request: i.body,
      }),
    ),
  );
  mount(app, rt.augment, async (i) =>
    s.activity.track(i.params.kbid, "augment", i, () => s.retrieval.augment(i.params.kbid, i.body)),
  );
  mount(app, tr.trainsetPartitions, async ({ params }) => trainsetPartitions(s.kbs.require(params.kbid)));
  mount(app, tr.generativeProviders, async ({ params }) => generativeProviders(s.learning.available(params.kbid)));
}

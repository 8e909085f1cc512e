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
    return null;
  });
  mount(app, fb.listFeedback, async ({ params, query }) => ({ feedback: await s.feedback.list(params.kbid, query.ident) }));
  mount(app, sm.summarize, async ({ params, body, signal, principal }) =>
    s.summarize.summarize(params.kbid, body, { signal, untrusted: principal.via !== "socket" }),
  );
  mount(app, rt.retrieve, async ({ params, body, principal, signal }) =>
    s.retrieval.retrieve(params.kbid, body, { principal, signal }),
  );
  mount(app, rt.augment, async ({ params, body }) => s.retrieval.augment(params.kbid, body));
  mount(app, tr.trainsetPartitions, async ({ params }) => trainsetPartitions(s.kbs.require(params.kbid)));
  mount(app, tr.generativeProviders, async ({ params }) => generativeProviders(s.learning.available(params.kbid)));
}

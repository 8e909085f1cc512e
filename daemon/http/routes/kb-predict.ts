import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Hono } from "hono";
import * as api from "../../../src/api/kb-predict.js";
import { predictChat } from "../../ask/predict-answers.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The knowledge-box-scoped predict proxy and model file download (routes the upstream clients call). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  // The chat form first, so that "chat" is not taken by the generic endpoint.
  mount(app, api.predictProxyChat, async ({ body, query, headers, params, signal, principal }) =>
    predictChat(s.predict, body, {
      untrusted: principal.via !== "socket",
      model: query.model,
      kbid: params.kbid,
      synchronous: headers["x-synchronous"],
      signal,
    }),
  );
  mount(app, api.predictProxyGet, async ({ params, query }) => s.predictProxy.get(params.kbid, params.endpoint, query));
  mount(app, api.predictProxyPost, async ({ params, body, signal }) =>
    s.predictProxy.post(params.kbid, params.endpoint, body, signal),
  );
  mount(app, api.downloadModelFile, async ({ params }) => {
    const f = s.models.modelFile(params.kbid, params.model_id, params.filename);
    const name = params.filename.split("/").pop() ?? "model";
    return new Response(Readable.toWeb(createReadStream(f.path)) as ReadableStream, {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(f.size),
        "content-disposition": `attachment; filename="${name.replace(/["\\]/g, "_")}"`,
      },
    });
  });
}

import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Hono } from "hono";
import { learningConfigJsonSchema } from "../../../src/api/learning.js";
import * as api from "../../../src/api/nua-models.js";
import type { Principal } from "../../auth/principal.js";
import { badRequest, notFound } from "../../errors.js";
import { NO_BEDROCK } from "../../kbs/model-configs.js";
import { accountModelRecord, addModelToKb, availableModel, removeModelFromKb } from "../../kbs/nua-models.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Learning configuration and models on the understanding API's paths, over the learning and model services. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const creation = async () => ({ title: "Knowledge box model configuration", ...learningConfigJsonSchema() });
  mount(app, { a: api.creationSchema, b: api.creationSchemaShort }, creation);
  mount(app, api.accountSchema, creation);
  mount(app, api.updateSchema, async ({ params }) => s.learning.schema(params.kbid));
  const untrusted = (p: Principal) => ({ untrusted: p.via !== "socket" });
  mount(app, api.getConfig, async ({ params }) => s.learning.configuration(params.kbid));
  mount(app, api.setConfig, async ({ params, body, principal }) =>
    s.learning.update(params.kbid, body, "replace", untrusted(principal)),
  );
  mount(app, api.patchConfig, async ({ params, body, principal }) =>
    s.learning.update(params.kbid, body, "patch", untrusted(principal)),
  );
  mount(app, api.deleteConfig, async ({ params }) => {
    await s.learning.update(params.kbid, {}, "replace");
    return undefined;
  });
  mount(app, api.kbModels, async ({ params }) => s.learning.available(params.kbid));
  mount(app, api.kbModel, async ({ params }) => availableModel(s.learning, params.kbid, params.model_id));
  mount(app, api.addKbModel, async ({ params, body, principal }) =>
    addModelToKb(s.learning, params.kbid, body.id, untrusted(principal)),
  );
  const account = (ref: string) => s.accounts.require(ref).id;
  mount(app, api.accountModels, async ({ params }) =>
    s.models.list().models.map((m) => accountModelRecord(m, account(params.account))),
  );
  mount(app, api.accountModel, async ({ params }) => {
    const m = s.models.list().models.find((x) => x.name === params.model_id || x.id === params.model_id);
    if (!m) throw notFound(`Model ${params.model_id} is not installed or configured on this daemon`);
    const kbids = s.kbs
      .list()
      .filter((k) => m.kbs.includes(k.slug) || m.kbs.includes(k.uuid))
      .map((k) => k.uuid);
    return { ...accountModelRecord(m, account(params.account)), log: null, kbids, openai_compat: m.provider === "openai" };
  });
  const mc = s.modelConfigs;
  mount(app, api.listModelConfigs, async ({ params }) => mc.list(account(params.account)));
  mount(app, api.createModelConfig, async ({ params, body, principal }) =>
    mc.create(account(params.account), body, untrusted(principal)),
  );
  mount(app, api.getModelConfig, async ({ params }) => mc.get(account(params.account), params.model_id));
  mount(app, api.updateModelConfig, async ({ params, body, principal }) =>
    mc.update(account(params.account), params.model_id, body, untrusted(principal)),
  );
  mount(app, api.deleteModelConfig, async ({ params }) => {
    await mc.delete(account(params.account), params.model_id);
    return undefined;
  });
  mount(app, { a: api.bedrockStart, b: api.bedrockFinish, c: api.bedrockDelete, d: api.bedrockValidate }, async () => {
    throw badRequest(NO_BEDROCK);
  });
  mount(app, api.deleteAccountModel, async ({ params }) => {
    await s.models.remove(params.model_id, false);
    return undefined;
  });
  mount(app, api.addAccountModelToKb, async ({ params, body, principal }) =>
    addModelToKb(s.learning, params.kbid, body.id, untrusted(principal)),
  );
  mount(app, api.removeAccountModelFromKb, async ({ params, principal }) => {
    await removeModelFromKb(s.learning, params.kbid, params.model_id, untrusted(principal));
    return undefined;
  });
  mount(app, api.downloadModelFileNua, async ({ params }) => {
    const f = s.models.modelFile(params.kbid, params.model_id, params.filename);
    return new Response(Readable.toWeb(createReadStream(f.path)) as ReadableStream, {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(f.size),
        "content-disposition": `attachment; filename="${params.filename.replace(/["\\/]/g, "_")}"`,
      },
    });
  });
}

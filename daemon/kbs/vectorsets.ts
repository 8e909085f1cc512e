/**
 * The upstream vectorset routes over kbox's per-model vectorsets: adding a vectorset adds a semantic
 * model to the knowledge box's configuration, removing one drops it (refused while it holds vectors).
 */
import { conflict, invalid, notFound } from "../errors.js";
import type { LearningService } from "./learning.js";
import { resolveSemantic, vectorsetsOf } from "./learning-view.js";
import type { KbModelService } from "./models.js";
import type { KbService } from "./service.js";

export interface VectorsetItem {
  id: string;
  model: string;
  dim: number;
  default: boolean;
}

export class VectorsetService {
  constructor(
    private readonly kbs: KbService,
    private readonly models: KbModelService,
    private readonly learning: LearningService,
  ) {}

  list(kbid: string): { vectorsets: VectorsetItem[] } {
    const kb = this.kbs.require(kbid);
    return {
      vectorsets: vectorsetsOf(this.models, kb).map((v) => ({ id: v.id, model: v.model, dim: v.dim, default: v.default })),
    };
  }

  /** Add the model a vectorset id names (a model name, or the vectorset id of one). */
  async add(kbid: string, id: string): Promise<{ id: string }> {
    const cur = this.list(kbid).vectorsets;
    const ref = resolveSemantic(this.models, id);
    if (!ref) {
      throw invalid([
        {
          type: "value_error",
          loc: ["path", "vectorset_id"],
          msg: `unknown semantic model ${JSON.stringify(id)}: install it (\`kbox models pull <id>\`) or configure an endpoint; GET /api/v1/kb/${kbid}/models lists the choices`,
          input: id,
        },
      ]);
    }
    if (cur.some((v) => v.id === ref.vectorset || v.model === ref.name))
      throw conflict(`Vectorset ${ref.vectorset} already exists`);
    await this.learning.update(kbid, { semantic_models: [...cur.map((v) => v.model), ref.name] }, "patch");
    return { id: ref.vectorset };
  }

  /** Drop a vectorset (by id or model name); the configuration refuses one that holds vectors. */
  async delete(kbid: string, id: string): Promise<void> {
    const cur = this.list(kbid).vectorsets;
    const gone = cur.find((v) => v.id === id || v.model === id);
    if (!gone) throw notFound(`Vectorset ${id} not found`);
    if (cur.length === 1)
      throw conflict(`Vectorset ${gone.id} is the only one of this knowledge box; add another before removing it`);
    const rest = cur.filter((v) => v !== gone);
    const def = gone.default ? rest[0].model : undefined;
    await this.learning.update(
      kbid,
      { semantic_models: rest.map((v) => v.model), ...(def ? { default_semantic_model: def } : {}) },
      "patch",
    );
  }
}

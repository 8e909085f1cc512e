/**
 * Export and import of an agent's whole configuration (workflows with their modules and rules,
 * prompts, drivers with their secrets), encrypted with the user's passphrase. kbox sends no e-mail:
 * the export answer names a download, stored in the agent's tables (it survives a restart) and
 * removed once expired.
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict, invalid, notFound } from "../errors.js";
import type { AgentConfigService } from "./config.js";
import { decryptExport, encryptExport } from "./secrets.js";
import { type Agent, DEFAULT_WORKFLOW, type DriverDoc, type PromptDoc, type WorkflowDoc } from "./tables.js";

/** How long an export can be downloaded (the service's e-mailed link plays this part). */
export const EXPORT_KEEP_MS = 24 * 3600_000;
const FORMAT = "kbox-agent-export/1";

interface Exported {
  format: string;
  agent: { title: string; description: string; mode: string };
  workflows: WorkflowDoc[];
  prompts: PromptDoc[];
  drivers: (Omit<DriverDoc, "config"> & { config: Record<string, unknown> })[];
}

export class TransferService {
  constructor(private readonly config: AgentConfigService) {}

  async export(agentId: string, passphrase: string) {
    const a = await this.config.open(agentId);
    const payload: Exported = {
      format: FORMAT,
      agent: { title: a.kb.title, description: a.kb.description, mode: a.kb.mode ?? "agent" },
      workflows: [...a.workflows.values()],
      prompts: [...a.prompts.values()],
      drivers: this.config.driversOpen(a),
    };
    const now = Date.now();
    await TransferService.purge(a, now);
    const id = randomUUID().replace(/-/g, "");
    const expires = new Date(now + EXPORT_KEEP_MS).toISOString();
    const data = encryptExport(passphrase, payload).toString("base64");
    await a.exports.put(id, { id, data, created: new Date(now).toISOString(), expires });
    return { id, download_url: `/api/v1/agent/${a.kb.uuid}/export/${id}`, expires };
  }

  /** Exports past their time are deleted (on each export and download). */
  private static async purge(a: Agent, now: number): Promise<void> {
    for (const e of [...a.exports.values()]) if (Date.parse(e.expires) <= now) await a.exports.delete(e.id);
  }

  async download(agentId: string, id: string): Promise<Response> {
    const a = await this.config.open(agentId);
    await TransferService.purge(a, Date.now());
    const e = a.exports.get(id);
    if (!e) throw notFound("Export not found (exports are kept 24 hours)");
    return new Response(new Uint8Array(Buffer.from(e.data, "base64")), {
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="agent-${a.kb.slug}.kboxagent"`,
      },
    });
  }

  /** Import from the multipart request: file, passphrase, overwrite. */
  async import(agentId: string, req: Request): Promise<void> {
    const a = await this.config.open(agentId);
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      throw badRequest("Send multipart/form-data with file, passphrase and overwrite");
    }
    const file = form.get("file");
    const passphrase = form.get("passphrase");
    const missing = (k: string) => invalid([{ type: "missing", loc: ["body", k], msg: "Field required", input: null }]);
    if (!file || typeof file === "string") throw missing("file");
    if (typeof passphrase !== "string" || !passphrase) throw missing("passphrase");
    const overwrite = ["true", "True", "1"].includes(String(form.get("overwrite") ?? "false"));
    const data = decryptExport(passphrase, Buffer.from(await file.arrayBuffer())) as Exported | undefined;
    if (!data) throw badRequest("The file does not open with this passphrase (a wrong passphrase, or not a kbox agent export)");
    if (data.format !== FORMAT) throw badRequest(`Unknown export format ${String(data.format)}`);
    const dflt = a.workflows.get(DEFAULT_WORKFLOW);
    const configured =
      a.drivers.size > 0 ||
      a.prompts.size > 0 ||
      a.workflows.size > 1 ||
      (dflt && (dflt.ruleList.length > 0 || Object.values(dflt.modules).some((m) => m.length > 0)));
    if (configured && !overwrite) throw conflict("The agent already has a configuration: import with overwrite to replace it");
    await this.config.replaceAll(a, data);
  }
}

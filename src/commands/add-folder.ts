import { relative, sep } from "node:path";
import type { KboxClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import { type AddedFile, type AddFolder, addFolder } from "../client/routes/add-folder.js";
import type { AddResult } from "./add-wait.js";

/** What every file of the folder gets: labels, hidden, strategies (AddFolder without root and files). */
export type FolderExtras = Omit<AddFolder, "root" | "files">;

const UNANSWERED = "the daemon did not answer for this file";

/**
 * Add files found under `root` through the local daemon in one request: it reads them itself and
 * answers an item per file as each is stored. Results come back in `files` order; `tick` is called per
 * answered file (the progress bar). A refused request (the folder may not be read) fails every file with why.
 */
export async function addFolderFiles(
  client: KboxClient,
  kbid: string,
  root: string,
  files: string[],
  extras: FolderExtras,
  tick: () => void,
): Promise<AddResult[]> {
  const rels = files.map((f) => relative(root, f).split(sep).join("/"));
  const at = new Map(rels.map((r, i) => [r, i]));
  const out: AddResult[] = files.map((source) => ({ source, status: "FAILED", error: UNANSWERED }));
  if (!files.length) return out;
  try {
    for await (const raw of client.stream(addFolder, { params: { kbid }, body: { root, files: rels, ...extras } })) {
      const item = raw as AddedFile & { type?: string; detail?: string };
      if (item.type === "error") throw new Error(item.detail ?? "the daemon failed");
      const i = at.get(item.path);
      if (i === undefined) continue;
      out[i] = {
        source: files[i],
        ...(item.resource ? { resource: item.resource } : {}),
        status: item.status,
        ...(item.error ? { error: item.error } : {}),
      };
      tick();
    }
  } catch (e) {
    const error = e instanceof ApiError ? String(e.detail) : (e as Error).message;
    for (const r of out) if (r.error === UNANSWERED) r.error = error;
  }
  return out;
}

import { basename, isAbsolute, resolve } from "node:path";
import type { AddedFile, AddFolder } from "../../src/api/add-folder.js";
import type { Classification } from "../../src/api/common.js";
import { contentTypeOf } from "../../src/api/mime.js";
import { invalid, KboxError } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { assertStrategies } from "../kbs/strategies.js";
import type { ResourceService } from "../resources/service.js";
import type { KbStore } from "../store/index.js";
import { type Caller, checkFolderRoot, type SyncSettings } from "../sync/roots.js";
import { type FolderFile, readFolderFile, sourceOf } from "./files.js";
import { Outcomes } from "./outcomes.js";

/** What adding a folder needs to know: the rules of sync roots, and the upload limit. */
export interface FolderAddSettings {
  sync: SyncSettings;
  /** The largest file (KBOX_MAX_UPLOAD_MB), bytes. */
  maxBytes: number;
}

/**
 * Files in flight at once: their resources are created together, so the resource and field tables
 * commit a batch of them at a time (a commit per file would cost more than reading the file).
 */
const IN_FLIGHT = 256;

/** One request's state: the folder, what it adds, and the MD5s already in the box (or claimed by this request). */
interface Run {
  kbid: string;
  root: string;
  /** The folder's name as given, the first part of each `origin.path`. */
  name: string;
  body: AddFolder;
  /** MD5 → the resource that holds it (a promise while this request creates it; undefined if that failed). */
  known: Map<string, Promise<string | undefined>>;
  /** Label updates of DUPLICATE resources, one at a time per resource. */
  labelling: Map<string, Promise<unknown>>;
}

/** MD5 of every file field of the box (a file's field hash is its MD5) → its resource. */
function md5Index(store: KbStore): Map<string, Promise<string | undefined>> {
  const out = new Map<string, Promise<string | undefined>>();
  for (const r of store.resources.values())
    for (const f of Object.values(r.fields))
      if (f.type === "file" && f.hash && !out.has(f.hash)) out.set(f.hash, Promise.resolve(r.id));
  return out;
}

const key = (c: Classification) => `${c.labelset}/${c.label}`;

/**
 * `kbox add <folder>` against the local daemon: the client names the files (walked with its include,
 * exclude and ignore rules) and the daemon reads them itself, a resource per file as an upload would
 * make it, many at a time, instead of a request or three per file.
 */
export class FolderAddService {
  constructor(
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    private readonly settings: FolderAddSettings,
  ) {}

  /** Check the request (its 4xx come before the stream), then add the files; an item per file as it is stored. */
  async add(kbid: string, body: AddFolder, caller: Caller, signal?: AbortSignal): Promise<AsyncIterable<AddedFile>> {
    const { kb, store } = await this.kbs.open(kbid);
    if (!isAbsolute(body.root))
      throw invalid([
        { type: "value_error", loc: ["body", "root"], msg: "root must be an absolute path", input: body.root, ctx: {} },
      ]);
    let root: string;
    try {
      root = checkFolderRoot(body.root, this.settings.sync, caller);
    } catch (e) {
      if (!(e instanceof KboxError)) throw e;
      throw new KboxError(e.status, `the daemon reads a folder under the rules of a folder sync: ${String(e.detail)}`);
    }
    await assertStrategies(store, [
      { kind: "extract", id: body.extract_strategy, loc: ["body", "extract_strategy"] },
      { kind: "split", id: body.split_strategy, loc: ["body", "split_strategy"] },
    ]);
    const run: Run = {
      kbid: kb.uuid,
      root,
      name: basename(resolve(body.root)),
      body,
      known: md5Index(store),
      labelling: new Map(),
    };
    return new Outcomes<string, AddedFile>(body.files, IN_FLIGHT, (rel) => this.one(run, rel), signal);
  }

  private async one(run: Run, rel: string): Promise<AddedFile> {
    try {
      const f = await readFolderFile(run.root, rel, this.settings.maxBytes);
      for (;;) {
        const claim = run.known.get(f.md5);
        if (!claim) return await this.create(run, f);
        const rid = await claim;
        if (rid) return await this.duplicate(run, rel, rid);
        if (run.known.get(f.md5) === claim) run.known.delete(f.md5); // the identical file failed: this one tries
      }
    } catch (e) {
      return { path: rel, status: "FAILED", error: e instanceof KboxError ? String(e.detail) : (e as Error).message };
    }
  }

  /** A new resource for the file, titled by its name, with `origin.path` = /{folder name}/{path}. */
  private async create(run: Run, f: FolderFile): Promise<AddedFile> {
    let settle: (rid: string | undefined) => void = () => undefined;
    run.known.set(f.md5, new Promise((r) => (settle = r)));
    const { labels, hidden, split_strategy, extract_strategy } = run.body;
    const filename = basename(f.rel);
    const type = contentTypeOf(filename);
    try {
      const { uuid } = await this.resources.create(
        run.kbid,
        {
          title: filename,
          ...(type === "application/octet-stream" ? {} : { icon: type }),
          origin: { filename, path: `/${run.name}/${f.rel}` },
          ...(labels?.length ? { usermetadata: { classifications: labels } } : {}),
          ...(hidden ? { hidden: true } : {}),
          files: {
            file: {
              file: { filename, content_type: type },
              ...(extract_strategy ? { extract_strategy } : {}),
              ...(split_strategy ? { split_strategy } : {}),
            },
          },
        },
        { fileSources: { file: sourceOf(f) } },
      );
      settle(uuid);
      return { path: f.rel, resource: uuid, status: "PENDING" };
    } catch (e) {
      settle(undefined);
      throw e;
    }
  }

  /** A file already in the box: name its resource, and give that resource the labels asked for that it lacks. */
  private async duplicate(run: Run, rel: string, rid: string): Promise<AddedFile> {
    const out: AddedFile = { path: rel, resource: rid, status: "DUPLICATE", error: `already in the knowledge box as ${rid}` };
    const labels = run.body.labels ?? [];
    if (!labels.length) return out;
    const prev = run.labelling.get(rid) ?? Promise.resolve();
    const next = prev.then(async () => {
      const { store } = await this.kbs.open(run.kbid);
      const have = (store.resources.get(rid)?.usermetadata?.classifications ?? []).map((c) => ({
        labelset: c.labelset,
        label: c.label,
      }));
      const fresh = labels.filter((l) => !have.some((h) => key(h) === key(l)));
      if (fresh.length)
        await this.resources.update(run.kbid, { rid }, { usermetadata: { classifications: [...have, ...fresh] } });
      return fresh.length > 0;
    });
    run.labelling.set(
      rid,
      next.catch(() => undefined),
    );
    const applied = await next;
    return { ...out, error: `${out.error}; labels ${labels.map(key).join(", ")} ${applied ? "applied" : "already set"}` };
  }
}

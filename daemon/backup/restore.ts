import { randomBytes, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { conflict, KboxError } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { KbDoc, Store } from "../store/index.js";
import { installKbDir } from "../store/snapshot.js";
import { extractArchive } from "./archive.js";
import type { BackupManifest } from "./types.js";

/** Present in a knowledge box folder from the moment it is moved into place until its record exists. */
const MARKER = ".kbox-restoring";

const slugTaken = (slug: string) => new KboxError(419, `Knowledge box already exists: the slug ${JSON.stringify(slug)} is taken`);

interface Staged {
  dir: string;
  manifest: BackupManifest;
  kb: KbDoc;
}

/**
 * Restores and imports. An archive is unpacked and fully verified in a staging folder under the
 * data dir; only then is its folder renamed into place and, last, the knowledge box record written.
 * A restore interrupted before that record leaves no knowledge box (staging and marked folders are
 * removed at the next start).
 */
export class Restorer {
  constructor(
    private readonly store: Store,
    private readonly kbs: KbService,
    private readonly tmpDir: string,
  ) {}

  /** Remove knowledge box folders of restores that never reached their record. */
  async cleanOrphans(): Promise<void> {
    const root = join(this.store.dataDir, "kbs");
    const names = await readdir(root).catch(() => [] as string[]);
    for (const name of names) {
      const marker = join(root, name, MARKER);
      if (!(await stat(marker).catch(() => undefined))) continue;
      if (this.store.kbs.has(name)) await rm(marker, { force: true });
      else await rm(join(root, name), { recursive: true, force: true });
    }
  }

  restoreFile(path: string, target: { slug?: string; title?: string }): Promise<KbDoc> {
    return this.restoreStream(createReadStream(path), target);
  }

  /** Restore an archive into a new knowledge box; slug and title default to the archived ones. */
  async restoreStream(input: Readable, target: { slug?: string; title?: string }): Promise<KbDoc> {
    if (target.slug && this.hasSlug(target.slug)) {
      input.destroy();
      throw slugTaken(target.slug);
    }
    const staged = await this.stage(input);
    try {
      const slug = target.slug ?? staged.kb.slug;
      const uuid = randomUUID();
      const dataDir = await this.dataFolder(staged.dir);
      await writeFile(join(dataDir, MARKER), "", { mode: 0o600 });
      if (this.hasSlug(slug)) throw slugTaken(slug);
      await installKbDir(this.store, uuid, dataDir);
      const kb: KbDoc = {
        ...staged.kb,
        uuid,
        slug,
        title: target.title ?? staged.kb.title,
        created: new Date().toISOString(),
        state: "PUBLISHED",
      };
      // The record goes last: once it is written the box exists, whole.
      if (this.hasSlug(slug)) {
        await rm(this.store.kbDir(uuid), { recursive: true, force: true });
        throw slugTaken(slug);
      }
      await this.store.kbs.put(uuid, kb);
      await rm(join(this.store.kbDir(uuid), MARKER), { force: true });
      await this.store.kb(uuid);
      await this.kbs.arrived(uuid);
      return kb;
    } finally {
      await rm(staged.dir, { recursive: true, force: true });
    }
  }

  /**
   * Import an archive into an existing, empty knowledge box: its uuid, slug and title stay, its
   * data and configuration come from the archive. Refused when the box holds resources or when its
   * semantic model differs from the archive's (the vectors would not match its queries).
   */
  async importInto(kbid: string, input: Readable): Promise<KbDoc> {
    const target = this.kbs.require(kbid);
    await this.requireEmpty(target.uuid);
    const staged = await this.stage(input);
    try {
      checkEmbedder(target, staged.manifest);
      await this.requireEmpty(target.uuid);
      await installKbDir(this.store, target.uuid, await this.dataFolder(staged.dir));
      const src = staged.kb;
      const next: KbDoc = {
        ...target,
        description: target.description || src.description,
        search_configs: { ...src.search_configs, ...target.search_configs },
        enforce_security: src.enforce_security,
        hidden_resources_enabled: src.hidden_resources_enabled,
        hidden_resources_hide_on_creation: src.hidden_resources_hide_on_creation,
        learning_configuration: target.learning_configuration ?? src.learning_configuration,
      };
      await this.store.kbs.put(target.uuid, next);
      await this.store.kb(target.uuid);
      await this.kbs.arrived(target.uuid);
      return next;
    } finally {
      await rm(staged.dir, { recursive: true, force: true });
    }
  }

  private async requireEmpty(kbid: string): Promise<void> {
    const kb = await this.store.kb(kbid);
    await kb.idle();
    if (kb.resources.size > 0 || (await kb.paragraphs.count()) > 0) {
      throw conflict("Knowledge box is not empty: import needs an empty knowledge box (or import as a new one)");
    }
  }

  private hasSlug(slug: string): boolean {
    try {
      this.kbs.bySlug(slug);
      return true;
    } catch (e) {
      if (e instanceof KboxError && e.status === 404) return false;
      throw e;
    }
  }

  private async stage(input: Readable): Promise<Staged> {
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    const dir = join(this.tmpDir, `restore-${randomBytes(8).toString("hex")}`);
    await mkdir(dir, { mode: 0o700 });
    try {
      const manifest = await extractArchive(input, dir);
      const kb = JSON.parse(await readFile(join(dir, "kb.json"), "utf8")) as KbDoc;
      if (!kb || typeof kb.slug !== "string")
        throw new KboxError(400, "Backup archive is corrupt or incomplete: kb.json is not a knowledge box");
      return { dir, manifest, kb };
    } catch (e) {
      await rm(dir, { recursive: true, force: true });
      input.destroy();
      throw e;
    }
  }

  /** Gather `lance/` and `blobs/` of a staged archive into one folder shaped like a knowledge box's. */
  private async dataFolder(staged: string): Promise<string> {
    const out = join(staged, "kb");
    await mkdir(out, { mode: 0o700 });
    await rename(join(staged, "lance"), join(out, "lance")).catch(async () => mkdir(join(out, "lance"), { mode: 0o700 }));
    await rename(join(staged, "blobs"), join(out, "blobs")).catch(async () => mkdir(join(out, "blobs"), { mode: 0o700 }));
    return out;
  }
}

function models(lc: KbDoc["learning_configuration"]): string[] {
  if (!lc) return [];
  return [...new Set([...(lc.semantic_models ?? []), ...(lc.semantic_model ? [lc.semantic_model] : [])])].sort();
}

/** Both sides name semantic models and they differ: the archive's vectors mean nothing here. */
function checkEmbedder(target: KbDoc, m: BackupManifest): void {
  const want = models(target.learning_configuration);
  const have = models(m.embedder?.learning_configuration ?? null);
  if (want.length && have.length && want.join(",") !== have.join(",")) {
    throw conflict(`Archive was embedded with ${have.join(", ")}; this knowledge box uses ${want.join(", ")}`);
  }
}

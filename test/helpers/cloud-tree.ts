import { createHash } from "node:crypto";

/** A file or folder of a stand-in cloud drive; ids are stable across renames and moves. */
export interface CloudNode {
  id: string;
  name: string;
  parent: string | null;
  folder: boolean;
  content: string;
  modified: Date;
  version: number;
}

/** A tree of files and folders under one root folder, addressed by path. */
export class CloudTree {
  readonly nodes = new Map<string, CloudNode>();
  private seq = 0;

  constructor(
    readonly rootId: string,
    private readonly idPrefix: string,
  ) {
    this.nodes.set(rootId, { id: rootId, name: "", parent: null, folder: true, content: "", modified: new Date(), version: 1 });
  }

  children(id: string): CloudNode[] {
    return [...this.nodes.values()].filter((n) => n.parent === id).sort((a, b) => a.name.localeCompare(b.name));
  }

  pathOf(n: CloudNode): string {
    const parts: string[] = [];
    for (let c: CloudNode | undefined = n; c && c.parent !== null; c = this.nodes.get(c.parent)) parts.unshift(c.name);
    return `/${parts.join("/")}`;
  }

  /** The node at a path ("/a/b"), or undefined. */
  at(path: string): CloudNode | undefined {
    let cur = this.nodes.get(this.rootId)!;
    for (const part of path.split("/").filter(Boolean)) {
      const next = this.children(cur.id).find((c) => c.name.toLowerCase() === part.toLowerCase());
      if (!next) return undefined;
      cur = next;
    }
    return cur;
  }

  /** Everything below a folder, depth first. */
  below(id: string): CloudNode[] {
    return this.children(id).flatMap((c) => [c, ...(c.folder ? this.below(c.id) : [])]);
  }

  private folderAt(path: string): CloudNode {
    let cur = this.nodes.get(this.rootId)!;
    for (const part of path.split("/").filter(Boolean)) {
      let next = this.children(cur.id).find((c) => c.name === part);
      if (!next) {
        next = {
          id: `${this.idPrefix}${++this.seq}`,
          name: part,
          parent: cur.id,
          folder: true,
          content: "",
          modified: new Date(),
          version: 1,
        };
        this.nodes.set(next.id, next);
      }
      cur = next;
    }
    return cur;
  }

  mkdir(path: string): CloudNode {
    return this.folderAt(path);
  }

  /** Create or overwrite a file (a new version). */
  put(path: string, content: string): CloudNode {
    const i = path.lastIndexOf("/");
    const parent = this.folderAt(path.slice(0, i));
    const name = path.slice(i + 1);
    const cur = this.children(parent.id).find((c) => c.name === name);
    if (cur) {
      Object.assign(cur, { content, modified: new Date(), version: cur.version + 1 });
      return cur;
    }
    const n = {
      id: `${this.idPrefix}${++this.seq}`,
      name,
      parent: parent.id,
      folder: false,
      content,
      modified: new Date(),
      version: 1,
    };
    this.nodes.set(n.id, n);
    return n;
  }

  move(from: string, to: string): void {
    const n = this.at(from)!;
    const i = to.lastIndexOf("/");
    n.parent = this.folderAt(to.slice(0, i)).id;
    n.name = to.slice(i + 1);
  }

  remove(path: string): void {
    const n = this.at(path)!;
    for (const c of this.below(n.id)) this.nodes.delete(c.id);
    this.nodes.delete(n.id);
  }
}

export const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");
export const md5 = (s: string) => createHash("md5").update(s).digest("hex");

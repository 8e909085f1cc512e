import { Worker } from "node:worker_threads";
import { deflateRawSync } from "node:zlib";

/** The thread's program (plain CommonJS: the same under tsx and compiled). */
const SOURCE = `
const { parentPort } = require("node:worker_threads");
const { deflateRawSync } = require("node:zlib");
parentPort.on("message", ({ id, bufs }) => {
  // One buffer back for the batch (each output alone would be sent with the 16 KiB zlib wrote it in).
  const outs = bufs.map((b) => deflateRawSync(b, { level: 1 }));
  const all = Buffer.allocUnsafeSlow(outs.reduce((n, o) => n + o.length, 0));
  let at = 0;
  for (const o of outs) at += o.copy(all, at);
  parentPort.postMessage({ id, all, lengths: outs.map((o) => o.length) }, [all.buffer]);
});
`;

interface Pending {
  resolve: (out: Buffer[]) => void;
  bufs: Buffer[];
}

/**
 * Raw deflate (level 1) of many buffers at once on a thread of its own: the records of a blob pack.
 * On the daemon's thread the deflates of a note's source and extraction output were a few percent of
 * what adding notes cost it, while the other core had time to spare; a batch costs one message each
 * way. A thread that fails (or cannot start) leaves the work to the calling thread, as before.
 */
class DeflateThread {
  private worker?: Worker;
  private failed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  deflate(bufs: Buffer[]): Promise<Buffer[]> {
    const w = this.thread();
    if (!w) return Promise.resolve(here(bufs));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, bufs });
      if (this.pending.size === 1) w.ref();
      w.postMessage({ id, bufs });
    });
  }

  private thread(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      const w = new Worker(SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });
      w.unref();
      w.on("message", ({ id, all, lengths }: { id: number; all: Uint8Array; lengths: number[] }) => {
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        if (!this.pending.size) w.unref();
        const bytes = Buffer.from(all.buffer, all.byteOffset, all.byteLength);
        const parts: Buffer[] = [];
        let at = 0;
        for (const n of lengths) {
          parts.push(bytes.subarray(at, at + n));
          at += n;
        }
        p.resolve(parts);
      });
      const lost = () => {
        this.failed = true;
        this.worker = undefined;
        for (const p of this.pending.values()) p.resolve(here(p.bufs));
        this.pending.clear();
      };
      w.on("error", lost);
      w.on("exit", lost);
      this.worker = w;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }
}

function here(bufs: Buffer[]): Buffer[] {
  return bufs.map((b) => deflateRawSync(b, { level: 1 }));
}

let shared: DeflateThread | undefined;

/** Raw deflate (level 1) of each buffer, off the calling thread when it can (one thread per process). */
export function deflateMany(bufs: Buffer[]): Promise<Buffer[]> {
  if (!bufs.length) return Promise.resolve([]);
  shared ??= new DeflateThread();
  return shared.deflate(bufs);
}

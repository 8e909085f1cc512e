/**
 * pdf.js, loaded without slowing down the rest of the process.
 *
 * Node 20 needs pdf.js's legacy build, and that build ships core-js polyfills that *replace* some
 * built-ins for the whole process: `Array.prototype.push` becomes a JavaScript loop (8× slower) and
 * `JSON.parse`/`JSON.stringify` become JavaScript wrappers (JSON.parse about 6× slower). Everything the
 * extraction worker runs after its first PDF paid for that. We load pdf.js and its worker module here,
 * then put the engine's own functions back. The polyfills that only *add* what Node 20 lacks
 * (`Promise.withResolvers`, `Map.prototype.getOrInsertComputed`...) stay: pdf.js uses them.
 */
type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

/** Built-ins the legacy build replaces, with the engine's own versions captured before it loads. */
const NATIVES: [object, PropertyKey, PropertyDescriptor | undefined][] = [
  [Array.prototype, "push"],
  [JSON, "parse"],
  [JSON, "stringify"],
].map(([o, k]) => [o as object, k as PropertyKey, Object.getOwnPropertyDescriptor(o, k as PropertyKey)]);

function restoreNatives(): void {
  for (const [o, k, d] of NATIVES) if (d) Object.defineProperty(o, k, d);
}

let loading: Promise<Pdfjs> | undefined;

/** pdf.js, with its "worker" running in this thread (we are already off the daemon's event loop). */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    try {
      const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
      // Loaded here rather than by the first getDocument(), so that its polyfills are undone too;
      // pdf.js uses a worker module found on globalThis instead of importing its own.
      // (The package has no types for the worker module, hence the name in a variable.)
      const worker: string = "pdfjs-dist/legacy/build/pdf.worker.mjs";
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(worker);
      return pdfjs;
    } finally {
      restoreNatives();
    }
  })();
  return loading;
}

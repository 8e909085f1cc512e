/** Read a server-sent-events body and yield each event's data (`[DONE]` ends it). */
export async function* sseData(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buf = "";
  let data: string[] = [];
  try {
    while (true) {
      if (signal?.aborted) return;
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, "");
        buf = buf.slice(nl + 1);
        nl = buf.indexOf("\n");
        if (line === "") {
          if (data.length) {
            const d = data.join("\n");
            data = [];
            if (d.trim() === "[DONE]") return;
            yield d;
          }
        } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
    }
    if (data.length && data.join("\n").trim() !== "[DONE]") yield data.join("\n");
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** Read an NDJSON body and yield each parsed line. */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buf = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        nl = buf.indexOf("\n");
        if (line) yield JSON.parse(line);
      }
    }
    if (buf.trim()) yield JSON.parse(buf);
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * The message of an endpoint's JSON error (`{error: {message}}`, `{error}`, `{detail}`), at most 200
 * characters; never the body itself: an endpoint's page is not repeated to the caller.
 */
export async function errorMessage(res: Response): Promise<string | undefined> {
  const text = await res.text().catch(() => "");
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const m = typeof j.error === "string" ? j.error : (j.error?.message ?? (typeof j.detail === "string" ? j.detail : j.message));
    return typeof m === "string" ? m.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

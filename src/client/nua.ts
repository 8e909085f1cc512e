import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { contentTypeOf } from "../api/mime.js";
import type { KboxClient } from "./client.js";
import { uploadToProcess } from "./routes/nua-processing.js";

/** Upload a local file to the understanding API's processing; answers the token a push's `filefield` takes. */
export async function uploadFileToProcess(client: KboxClient, path: string): Promise<string> {
  const name = basename(path);
  return client.callRaw(uploadToProcess, {
    body: createReadStream(path),
    headers: { "content-type": contentTypeOf(name), "x-filename": encodeURIComponent(name) },
  });
}

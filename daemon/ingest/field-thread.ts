/**
 * The field thread's entry (see field-threads.ts): a worker thread of the daemon that runs
 * analyseField on the fields it is sent and answers `{ id, outcome }` or `{ id, error }`.
 */
import { parentPort } from "node:worker_threads";
import { analyseField, type FieldJob, type FieldReply } from "./analyse-field.js";

const port = parentPort;
port?.on("message", async (job: FieldJob) => {
  let reply: FieldReply;
  try {
    reply = { id: job.id, outcome: await analyseField(job) };
  } catch (e) {
    reply = { id: job.id, error: (e as Error)?.message ?? String(e) };
  }
  port.postMessage(reply);
});

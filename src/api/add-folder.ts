import { z } from "zod";
import { Classification } from "./common.js";
import { route } from "./route.js";

/** A file's path under the folder: forward slashes, no `.`, `..` or empty parts. */
const RelPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes("\0") && p.split("/").every((part) => part !== "" && part !== "." && part !== ".."), {
    message: "a path relative to the folder, with no empty, '.' or '..' parts",
  });

/** Files of a folder on the daemon's machine to add as resources (what `kbox add <folder>` sends the local daemon). */
export const AddFolder = z.object({
  /** The folder, an absolute path; the daemon reads it under the rules of a local_folder sync root. */
  root: z.string().min(1).max(4096),
  /** The files to add, relative to `root` (the client walked the folder with its include and ignore rules). */
  files: z.array(RelPath).min(1).max(1_000_000),
  /** Classifications of every new resource; a DUPLICATE file's resource gets those it lacks. */
  labels: z.array(Classification).optional(),
  hidden: z.boolean().optional(),
  split_strategy: z.string().optional(),
  extract_strategy: z.string().optional(),
});
export type AddFolder = z.infer<typeof AddFolder>;

/** What became of one file: a new resource (PENDING: queued for processing), a DUPLICATE, or FAILED. */
export const AddedFile = z.object({
  path: z.string(),
  resource: z.string().optional(),
  status: z.enum(["PENDING", "DUPLICATE", "FAILED"]),
  error: z.string().optional(),
});
export type AddedFile = z.infer<typeof AddedFile>;

export const addFolder = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/add-folder",
  params: z.object({ kbid: z.string() }),
  body: AddFolder,
  response: AddedFile,
  stream: "ndjson",
  /** As a folder sync configuration: a TCP key reads only folders of KBOX_SYNC_ROOTS, the socket's owner any. */
  role: "MANAGER",
  summary: "Add files of a folder on the daemon's machine as resources (NDJSON, one item per file as it is stored)",
});

/** Content types by file extension, for the `content-type` a file upload declares. */
const TYPES: Record<string, string> = {
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  rst: "text/x-rst",
  html: "text/html",
  htm: "text/html",
  json: "application/json",
  csv: "text/csv",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  epub: "application/epub+zip",
  odt: "application/vnd.oasis.opendocument.text",
};

/** A content type from a file name's extension; the daemon detects the real type from the bytes anyway. */
export function contentTypeOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return (dot > 0 && TYPES[base.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}

/**
 * Files that are not documents: a site's stylesheets, scripts, source maps, fonts, search-index
 * blobs, web manifests and icons. `kbox add` on a folder and folder sync skip them by default (an
 * explicit include pattern takes one back). Images are documents (read by OCR).
 */
const ASSET_EXT = new Set([
  "css",
  "scss",
  "less",
  "js",
  "mjs",
  "cjs",
  "map",
  "woff",
  "woff2",
  "ttf",
  "otf",
  "eot",
  "ico",
  "svg",
  "gif",
  "wasm",
  "webmanifest",
  "lock",
]);

/** Search indexes of static site generators (mdBook, Sphinx, MkDocs, Docusaurus, Hugo, lunr, pagefind). */
const SEARCH_INDEX =
  /(?:^|\/)(?:searchindex\.(?:js|json)|search[-_]index\.(?:js|json)|search_index\.json|searchindex|search-data\.json|lunr[^/]*\.js|elasticlunr[^/]*\.js|fuse[^/]*\.js|pagefind\/.*|_static\/.*\.(?:js|css)|assets\/(?:js|css|fonts)\/.*)$/i;

/** Whether a file (path relative to the folder added, `/`-separated) is a site asset rather than a document. */
export function isSiteAsset(rel: string): boolean {
  const name = rel.slice(rel.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  if (dot > 0 && ASSET_EXT.has(name.slice(dot + 1))) return true;
  if (/\.min\.(?:js|css)$|\.(?:js|css)\.map$/.test(name)) return true;
  return SEARCH_INDEX.test(rel);
}

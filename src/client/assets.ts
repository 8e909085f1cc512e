/** Which files of a folder are site assets rather than documents (the daemon's folder sync agrees). */
export { isSiteAsset } from "../api/assets.js";

/** Version of the kbox wire protocol; a client and daemon of different major numbers restart the daemon. */
export const PROTOCOL_VERSION = 1;
/** Package version, stamped at build from package.json by the hello route. */
export const API_PREFIX = "/api/v1";
/** kbox's version; a test keeps it equal to package.json's. */
export const VERSION = "0.1.0";

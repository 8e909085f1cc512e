/**
 * The model hub of every test daemon unless a test names one: a loopback port nothing listens on.
 * A daemon's automatic pull of the default model then fails at once (keyword retrieval), and no test
 * ever asks an address off this machine; a test of pulls starts its own hub and names it.
 * vitest.config.ts puts it in the environment that daemons started as processes inherit, and
 * test/helpers/daemon.ts gives it to the daemons tests start in-process.
 */
export const NO_HUB = { KBOX_HF_ENDPOINT: "http://127.0.0.1:9" };

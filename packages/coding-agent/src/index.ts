// Public API of @agent/coding-agent. Nothing inside the package imports this file statically (the extension
// loader imports it lazily, to hand extensions this running copy: core/extensions/host-modules.ts).
export { APP_NAME, VERSION } from "./config.js";
export * from "./core/agent-session.js";
export * from "./core/compaction/index.js";
export * from "./core/config/index.js";
export * from "./core/export-html/index.js";
export * from "./core/extensions/hooks.js";
export * from "./core/extensions/index.js";
export * from "./core/resources/index.js";
export * from "./core/sdk.js";
export * from "./core/session/index.js";
export * from "./core/session-runtime/index.js";
export * from "./core/tools/index.js";

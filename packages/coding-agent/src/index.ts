// Public API of @agent/coding-agent. Nothing inside the package imports this file.
export { APP_NAME, VERSION } from "./config.js";
export * from "./core/agent-session.js";
export * from "./core/compaction/index.js";
export * from "./core/config/index.js";
export * from "./core/extensions/hooks.js";
export * from "./core/resources/index.js";
export * from "./core/sdk.js";
export * from "./core/session/index.js";
export * from "./core/session-runtime/index.js";
export * from "./core/tools/index.js";

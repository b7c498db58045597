export * from "./auth-migration.js";
export * from "./auth-storage.js";
export * from "./config-value.js";
export { type FileLock, FileLockedError, type LockHolder } from "./file-lock.js";
export * from "./model-registry.js";
export * from "./model-resolver.js";
export * from "./models-json.js";
export * from "./paths.js";
export * from "./settings.js";

// Public API of @agent/agent-core. Nothing inside the package imports this file.
export type * from "./types.js";

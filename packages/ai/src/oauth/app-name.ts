/**
 * How this program names itself to subscription services (the Codex `originator`, Cloud Code Assist's
 * `userAgent`). `@agent/ai` knows nothing of the coding agent's name, so it is a constant here.
 */
export const APP_NAME_FOR_PROVIDERS = "agent";

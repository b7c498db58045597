// Public API of @agent/coding-agent. Nothing inside the package imports this file.
export { APP_NAME, VERSION } from "./config.js";

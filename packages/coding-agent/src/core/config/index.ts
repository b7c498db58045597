export * from "./paths.js";
export * from "./settings.js";

// Public API of core/extensions (re-exported by the package index; hooks.ts is exported there directly).
export * from "./api.js";
export * from "./context.js";
export * from "./event-bus.js";
export * from "./events.js";
export * from "./exec.js";
export * from "./host-modules.js";
export * from "./loader.js";
export * from "./provider-registration.js";
export * from "./registrations.js";
export * from "./rpc-ui-context.js";
export * from "./runner.js";
export * from "./runtime.js";
export * from "./setup.js";
export * from "./tool-wrapper.js";
export * from "./trust.js";
export * from "./types.js";
export * from "./ui-context.js";

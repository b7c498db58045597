// Public entry of the interactive mode: the CLI starts it with `runInteractiveMode`.
export { InteractiveMode, runInteractiveMode } from "./interactive-mode.js";
export type { InteractiveModeOptions } from "./mode-host.js";

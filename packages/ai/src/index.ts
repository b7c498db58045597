// Public API of @agent/ai: everything in without-typebox.ts, and TypeBox's `Type` for building tool schemas.
// Nothing inside the package imports this file.
export { Type } from "@sinclair/typebox";
export * from "./without-typebox.js";

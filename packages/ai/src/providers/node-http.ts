/**
 * node:http, loaded through `require`. On Node 22 an ES-module import of node:http reads every export of the
 * module, and its lazy `WebSocket`/`MessageEvent`/`CloseEvent` getters load undici: about 30 ms of CPU at start-up
 * for something nothing here uses. Types still come from a type-only import, which is erased.
 */
import type * as Http from "node:http";
import { createRequire } from "node:module";

export const nodeHttp: typeof Http = createRequire(import.meta.url)("node:http");

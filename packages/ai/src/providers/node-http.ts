/**
 * Node's HTTP modules, taken through `require`:
 * - node:http at once. On Node 22 an ES-module import of it reads every export of the module, and its lazy
 *   `WebSocket`/`MessageEvent`/`CloseEvent` getters load undici: ~30 ms of CPU for something nothing here uses.
 * - node:https and node:tls on the first https request or tunnel: loading TLS costs ~25 ms on Node 22, which a
 *   start that has sent no request yet need not pay (the SDKs' first request loads undici, and with it TLS).
 * Types come from type-only imports, which are erased.
 */
import type * as Http from "node:http";
import type * as Https from "node:https";
import { createRequire } from "node:module";
import type * as Tls from "node:tls";

const nodeRequire = createRequire(import.meta.url);

export const nodeHttp: typeof Http = nodeRequire("node:http");

let https: typeof Https | undefined;
let tls: typeof Tls | undefined;

export function nodeHttps(): typeof Https {
	https ??= nodeRequire("node:https") as typeof Https;
	return https;
}

export function nodeTls(): typeof Tls {
	tls ??= nodeRequire("node:tls") as typeof Tls;
	return tls;
}

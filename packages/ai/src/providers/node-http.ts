/**
 * Node's HTTP modules, each taken with `process.getBuiltinModule` on first use:
 * - an ES-module import of node:http reads every export of the module, and on Node 22 its lazy
 *   `WebSocket`/`MessageEvent`/`CloseEvent` getters load undici: ~30 ms of CPU for something nothing here uses;
 * - a program that imports the package and has sent no request yet (or never does) loads none of them: node:http
 *   with node:net and node:stream costs ~7 ms on Node 20, TLS ~25 ms on Node 22.
 * Types come from type-only imports, which are erased.
 */
import type * as Http from "node:http";
import type * as Https from "node:https";
import type * as Tls from "node:tls";

let http: typeof Http | undefined;
let https: typeof Https | undefined;
let tls: typeof Tls | undefined;

export function nodeHttp(): typeof Http {
	http ??= process.getBuiltinModule("node:http");
	return http;
}

export function nodeHttps(): typeof Https {
	https ??= process.getBuiltinModule("node:https");
	return https;
}

export function nodeTls(): typeof Tls {
	tls ??= process.getBuiltinModule("node:tls");
	return tls;
}

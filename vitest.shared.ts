import { fileURLToPath } from "node:url";

const src = (pkg: string, file = "index") =>
	fileURLToPath(new URL(`./packages/${pkg}/src/${file}.ts`, import.meta.url));

/**
 * Tests import sibling packages by name; these aliases point them at the sources so the
 * unit tests never depend on a stale `dist/`. End-to-end tests spawn the built binary instead.
 */
export const workspaceAliases = [
	{ find: /^@agent\/ai$/, replacement: src("ai") },
	// The provider key names alone, without the provider layer: coding-agent's setup file runs for every test file.
	{ find: /^@agent\/ai\/env-api-keys$/, replacement: src("ai", "env-api-keys") },
	{ find: /^@agent\/agent-core$/, replacement: src("agent") },
	{ find: /^@agent\/tui$/, replacement: src("tui") },
	{ find: /^@agent\/coding-agent$/, replacement: src("coding-agent") },
];

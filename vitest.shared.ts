import { fileURLToPath } from "node:url";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * Tests import sibling packages by name; these aliases point them at the sources so the
 * unit tests never depend on a stale `dist/`. End-to-end tests spawn the built binary instead.
 */
export const workspaceAliases = [
	{ find: /^@agent\/ai$/, replacement: src("ai") },
	{ find: /^@agent\/agent-core$/, replacement: src("agent") },
	{ find: /^@agent\/tui$/, replacement: src("tui") },
	{ find: /^@agent\/coding-agent$/, replacement: src("coding-agent") },
];

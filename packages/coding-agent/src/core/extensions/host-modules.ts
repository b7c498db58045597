// The packages an extension imports from its host are the running copies, not files jiti would load again:
// a second copy of @agent/ai would have its own provider registry, a second copy of this package its own
// classes. They are handed to jiti as virtual modules, under our names and under the reference's names, so
// extensions written for the reference load unchanged (docs/extensions.md "Loading").
//
// Each package is imported only when an extension needs it (most import only types, plus TypeBox). This
// package's own public entry is what extension authors import most; nothing inside the package imports its
// index (that would close an import circle through everything the index re-exports), so it is reached by name
// at run time, which gives an embedder's extensions the very copy the embedder imported, or provided by the
// entry that holds another copy (the CLI's bundle: `cli.ts` gives it to `main`).

/** A host package by our name, with every module id it answers to. */
export const HOST_PACKAGE_ALIASES = {
	"@agent/coding-agent": ["@agent/coding-agent", "@mariozechner/pi-coding-agent"],
	"@agent/agent-core": ["@agent/agent-core", "@mariozechner/pi-agent-core"],
	"@agent/ai": ["@agent/ai", "@mariozechner/pi-ai"],
	"@agent/tui": ["@agent/tui", "@mariozechner/pi-tui"],
	"@sinclair/typebox": ["@sinclair/typebox", "typebox"],
} as const satisfies Record<string, readonly string[]>;

export type HostPackage = keyof typeof HOST_PACKAGE_ALIASES;

export const HOST_PACKAGES = Object.keys(HOST_PACKAGE_ALIASES) as HostPackage[];

const PACKAGE_BY_ID = new Map<string, HostPackage>(
	HOST_PACKAGES.flatMap((name) => HOST_PACKAGE_ALIASES[name].map((id): [string, HostPackage] => [id, name])),
);

/** The host package a module id names (`@mariozechner/pi-ai` → `@agent/ai`), if any. */
export function hostPackageOf(id: string): HostPackage | undefined {
	return PACKAGE_BY_ID.get(id);
}

// In a variable, so that neither the compiler nor the bundler resolves it to this package's own files.
const OWN_PACKAGE_NAME: string = "@agent/coding-agent";
let loadOwnPackage: () => Promise<unknown> = () => import(OWN_PACKAGE_NAME);

/** Makes `load` the source of `@agent/coding-agent` for extensions (before any extension is loaded). */
export function provideOwnPackage(load: () => Promise<unknown>): void {
	loadOwnPackage = load;
}

const importers: Record<HostPackage, () => Promise<unknown>> = {
	"@agent/coding-agent": () => loadOwnPackage(),
	"@agent/agent-core": () => import("@agent/agent-core"),
	// With TypeBox's `Type` added: the `agent` bundle builds @agent/ai without it (scripts/bundle.mjs), so that a
	// run no extension asks for never loads TypeBox. Elsewhere the package has it already; this changes nothing.
	"@agent/ai": async () => {
		const [ai, typebox] = await Promise.all([import("@agent/ai"), import("@sinclair/typebox")]);
		return { ...ai, Type: typebox.Type };
	},
	"@agent/tui": () => import("@agent/tui"),
	"@sinclair/typebox": () => import("@sinclair/typebox"),
};

const loaded = new Map<HostPackage, Promise<unknown>>();

/** Module id → module namespace for the given host packages (each imported once per process). */
export async function loadHostModules(
	packages: Iterable<HostPackage> = HOST_PACKAGES,
): Promise<Record<string, unknown>> {
	const names = [...new Set(packages)];
	const namespaces = await Promise.all(
		names.map((name) => {
			let module = loaded.get(name);
			if (!module) {
				module = importers[name]();
				loaded.set(name, module);
			}
			return module;
		}),
	);
	const modules: Record<string, unknown> = {};
	names.forEach((name, index) => {
		for (const id of HOST_PACKAGE_ALIASES[name]) modules[id] = namespaces[index];
	});
	return modules;
}

// The packages an extension imports from its host are the running copies, not files jiti would load again:
// a second copy of @agent/ai would have its own provider registry, a second copy of this package its own
// classes. They are handed to jiti as virtual modules, under our names and under the reference's names, so
// extensions written for the reference load unchanged (extensions.md §1 "Loading a module").
//
// This is the one module that reaches for the package's own public entry: it is what extension authors
// import, and it is loaded lazily, only when there are extensions to load, so there is no import cycle at
// module-evaluation time.

export const HOST_PACKAGE_ALIASES: Readonly<Record<string, readonly string[]>> = {
	"@agent/coding-agent": ["@agent/coding-agent", "@mariozechner/pi-coding-agent"],
	"@agent/agent-core": ["@agent/agent-core", "@mariozechner/pi-agent-core"],
	"@agent/ai": ["@agent/ai", "@mariozechner/pi-ai"],
	"@agent/tui": ["@agent/tui", "@mariozechner/pi-tui"],
	"@sinclair/typebox": ["@sinclair/typebox", "typebox"],
};

let hostModules: Promise<Record<string, unknown>> | undefined;

/** Module id → module namespace, for every host package name (loaded once per process). */
export function loadHostModules(): Promise<Record<string, unknown>> {
	hostModules ??= (async () => {
		const [codingAgent, agentCore, ai, tui, typebox] = await Promise.all([
			import("../../index.js"),
			import("@agent/agent-core"),
			import("@agent/ai"),
			import("@agent/tui"),
			import("@sinclair/typebox"),
		]);
		const byPackage: Record<string, unknown> = {
			"@agent/coding-agent": codingAgent,
			"@agent/agent-core": agentCore,
			"@agent/ai": ai,
			"@agent/tui": tui,
			"@sinclair/typebox": typebox,
		};
		const modules: Record<string, unknown> = {};
		for (const [name, ids] of Object.entries(HOST_PACKAGE_ALIASES)) {
			for (const id of ids) modules[id] = byPackage[name];
		}
		return modules;
	})();
	return hostModules;
}

import type { ResourceDiagnostic, ResourceKind } from "./diagnostics.js";
import { realPathOf } from "./path-probes.js";

/** What loading one resource file gives: the resource (absent when it can't load) and what was wrong with it. */
export interface LoadedResource<T> {
	resource?: T;
	diagnostics: ResourceDiagnostic[];
}

/**
 * Resources gathered from several sources in priority order: the first with a name wins (later ones are reported
 * as collisions), and a file reached a second time through another path (a symbolic link) is read only once.
 */
export abstract class NamedResourceCollection<T extends { name: string }> {
	private readonly byName = new Map<string, T>();
	private readonly firstPathByRealPath = new Map<string, string>();
	readonly diagnostics: ResourceDiagnostic[] = [];

	protected constructor(private readonly resourceType: ResourceKind) {}

	/** The file a resource was loaded from (the winner of a collision). */
	protected abstract pathOf(resource: T): string;

	/** How a collision is reported; prompt templates show the name as it is typed (`/name`). */
	protected collisionMessage(name: string): string {
		return `name "${name}" collision`;
	}

	protected get resources(): T[] {
		return [...this.byName.values()];
	}

	/** Loads `filePath` with `load`, unless the same file was added before under any path. */
	protected addLoadedFile(filePath: string, load: () => LoadedResource<T>): void {
		const realPath = realPathOf(filePath);
		const firstPath = this.firstPathByRealPath.get(realPath);
		if (firstPath !== undefined) {
			if (firstPath !== filePath) {
				this.diagnostics.push({ type: "duplicate", message: `same file as ${firstPath}`, path: filePath });
			}
			return;
		}
		this.firstPathByRealPath.set(realPath, filePath);
		const { resource, diagnostics } = load();
		this.diagnostics.push(...diagnostics);
		if (!resource) return;
		const existing = this.byName.get(resource.name);
		if (existing) {
			this.diagnostics.push({
				type: "collision",
				message: this.collisionMessage(resource.name),
				path: filePath,
				collision: {
					resourceType: this.resourceType,
					name: resource.name,
					winnerPath: this.pathOf(existing),
					loserPath: filePath,
				},
			});
			return;
		}
		this.byName.set(resource.name, resource);
	}
}

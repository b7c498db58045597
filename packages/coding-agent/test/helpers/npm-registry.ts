// A minimal npm registry on 127.0.0.1 for package tests: the real `npm` installs from it. It speaks the part of
// the registry protocol `npm install` uses — the packument (`GET /<name>`, scoped names as `@scope%2fname`) and
// the tarball it names — with tarballs built in memory. A registry of our own starts in a millisecond; verdaccio
// would bring hundreds of dependencies into the one lockfile and seconds of start-up per test file.
import { createHash } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export interface PublishedVersion {
	name: string;
	version: string;
	/** Files of the package, relative to its root; `package.json` is written from the other fields unless given. */
	files: Record<string, string>;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	scripts?: Record<string, string>;
	/** Extra package.json fields (e.g. `agent` or `pi` manifests). */
	manifest?: Record<string, unknown>;
}

interface StoredVersion {
	packageJson: Record<string, unknown>;
	tarball: Buffer;
}

function tarHeader(path: string, size: number): Buffer {
	const header = Buffer.alloc(512);
	const field = (value: string, offset: number, length: number) => header.write(value, offset, length, "utf8");
	const octal = (value: number, offset: number, length: number) =>
		field(`${value.toString(8).padStart(length - 1, "0")}\0`, offset, length);
	field(path, 0, 100);
	octal(0o644, 100, 8);
	octal(0, 108, 8);
	octal(0, 116, 8);
	octal(size, 124, 12);
	octal(0, 136, 12);
	field("        ", 148, 8);
	field("0", 156, 1);
	field("ustar\u000000", 257, 8);
	let sum = 0;
	for (const byte of header) sum += byte;
	field(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
	return header;
}

/** A gzipped ustar archive with every file under `package/`, as `npm pack` makes them. */
export function packTarball(files: Record<string, string>): Buffer {
	const parts: Buffer[] = [];
	for (const [path, content] of Object.entries(files)) {
		const body = Buffer.from(content, "utf8");
		parts.push(tarHeader(`package/${path}`, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
	}
	parts.push(Buffer.alloc(1024));
	return gzipSync(Buffer.concat(parts));
}

export class NpmRegistry {
	private readonly packages = new Map<string, Map<string, StoredVersion>>();
	/** Request paths in arrival order (packuments and tarballs). */
	readonly requests: string[] = [];

	private constructor(
		private readonly server: Server,
		readonly url: string,
	) {}

	static async start(): Promise<NpmRegistry> {
		let registry: NpmRegistry | undefined;
		const server = createServer((request, response) => registry?.handle(request.url ?? "/", response));
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const { port } = server.address() as AddressInfo;
		registry = new NpmRegistry(server, `http://127.0.0.1:${port}/`);
		return registry;
	}

	/** Adds a version (the latest published one is `latest`). */
	publish(pkg: PublishedVersion): void {
		const packageJson: Record<string, unknown> = {
			name: pkg.name,
			version: pkg.version,
			...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}),
			...(pkg.peerDependencies ? { peerDependencies: pkg.peerDependencies } : {}),
			...(pkg.scripts ? { scripts: pkg.scripts } : {}),
			...pkg.manifest,
		};
		const files = { "package.json": JSON.stringify(packageJson, null, 2), ...pkg.files };
		const versions = this.packages.get(pkg.name) ?? new Map<string, StoredVersion>();
		versions.set(pkg.version, { packageJson, tarball: packTarball(files) });
		this.packages.set(pkg.name, versions);
	}

	/** The environment that points `npm` at this registry, with a cache and configuration of its own. */
	npmEnv(cacheDir: string): NodeJS.ProcessEnv {
		return {
			npm_config_registry: this.url,
			npm_config_cache: cacheDir,
			npm_config_userconfig: `${cacheDir}/npmrc`,
			npm_config_update_notifier: "false",
			npm_config_fetch_retries: "0",
			npm_config_audit: "false",
			npm_config_fund: "false",
			npm_config_loglevel: "error",
		};
	}

	close(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}

	private tarballUrl(name: string, version: string): string {
		return `${this.url}${name}/-/${name.split("/").at(-1)}-${version}.tgz`;
	}

	private handle(rawUrl: string, response: ServerResponse): void {
		const path = decodeURIComponent(rawUrl.split("?")[0] ?? "/").replace(/^\/+/, "");
		this.requests.push(path);
		const tarball = /^(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(path);
		if (tarball) {
			const stored = this.packages.get(tarball[1] as string)?.get(tarball[2] as string);
			if (!stored) {
				this.notFound(response);
				return;
			}
			response.writeHead(200, { "content-type": "application/octet-stream" });
			response.end(stored.tarball);
			return;
		}
		const versions = this.packages.get(path);
		if (!versions) {
			this.notFound(response);
			return;
		}
		const entries = [...versions.entries()];
		const packument = {
			name: path,
			"dist-tags": { latest: entries.at(-1)?.[0] },
			versions: Object.fromEntries(
				entries.map(([version, stored]) => [
					version,
					{
						...stored.packageJson,
						dist: {
							tarball: this.tarballUrl(path, version),
							shasum: createHash("sha1").update(stored.tarball).digest("hex"),
							integrity: `sha512-${createHash("sha512").update(stored.tarball).digest("base64")}`,
						},
					},
				]),
			),
		};
		response.writeHead(200, { "content-type": "application/json" });
		response.end(JSON.stringify(packument));
	}

	private notFound(response: ServerResponse): void {
		response.writeHead(404, { "content-type": "application/json" });
		response.end(JSON.stringify({ error: "Not found" }));
	}
}

// MCP server configuration: `mcp.json` in the user directory and in the project's `.agent/`, and a
// project-root `.mcp.json`, in the `mcpServers` shape other agents read. Values may use `${VAR}` and
// `${VAR:-default}`. The project's files count only in a trusted project: until then nothing of them starts
// (project trust, extensions/trust.ts, names their servers in its notice). A bad file or server is reported (file and server named) and skipped;
// the other servers load and no file is ever rewritten. Nothing here loads the MCP SDK.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { getProjectConfigDir } from "../config/paths.js";
import { readRegularFileSync } from "../tools/regular-file.js";

export const MCP_CONFIG_FILE_NAME = "mcp.json";
/** The project-root file other agents (Claude Code, Cursor, …) use. */
export const PROJECT_ROOT_MCP_FILE_NAME = ".mcp.json";

export const MCP_TOOL_MODES = ["direct", "on-demand"] as const;
/** `direct`: the server's tools are listed to the model; `on-demand`: reached through the `mcp` tool. */
export type McpToolMode = (typeof MCP_TOOL_MODES)[number];

export type McpTransportKind = "stdio" | "http" | "sse";

/** Where a server was configured: a user or project file, the editor (ACP), or an embedder (SDK). */
export type McpConfigSource = "user" | "project" | "editor" | "sdk";

export interface McpOAuthConfig {
	/** A client registered in advance; without it the client registers itself (dynamic registration). */
	clientId?: string;
	clientSecret?: string;
	scope?: string;
	/** The port of the local redirect (`http://127.0.0.1:<port>/callback`); default: any free port. */
	callbackPort?: number;
}

interface McpServerConfigBase {
	name: string;
	source: McpConfigSource;
	/** The file that configured it (absent for editor and SDK servers). */
	configPath?: string;
	enabled: boolean;
	/** Absent: decided by the tool budget (`mcp.directToolLimit`). */
	toolMode?: McpToolMode;
	/** Per-call timeout in ms; default: settings `mcp.toolTimeoutMs`. */
	timeoutMs?: number;
}

export interface McpStdioServerConfig extends McpServerConfigBase {
	transport: "stdio";
	command: string;
	args: string[];
	env: Record<string, string>;
	cwd?: string;
}

export interface McpRemoteServerConfig extends McpServerConfigBase {
	transport: "http" | "sse";
	url: string;
	headers: Record<string, string>;
	/** No `type` was given: try streamable HTTP, then the legacy SSE transport. */
	sseFallback: boolean;
	/** `false`: never start an authorization flow. */
	oauth: McpOAuthConfig | false;
}

export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

export interface LoadedMcpConfig {
	/** Usable servers, user first, then the project's (a later file replaces a server of the same name). */
	servers: McpServerConfig[];
	/** One line per problem, naming the file and the server. */
	errors: string[];
}

/** A server of the project's own configuration, as project trust lists what waits for it. */
export interface ProjectMcpServer {
	name: string;
	/** The file that configures it. */
	file: string;
}

export interface LoadMcpConfigOptions {
	cwd: string;
	agentDir: string;
	/** Whether the project's own files count (see extensions/trust.ts). */
	projectTrusted: boolean;
	/** For `${VAR}` expansion. Default `process.env`. */
	env?: NodeJS.ProcessEnv;
}

/** The user file, then the project files in the order they override each other. */
export function mcpConfigFiles(cwd: string, agentDir: string): { path: string; source: "user" | "project" }[] {
	return [
		{ path: join(agentDir, MCP_CONFIG_FILE_NAME), source: "user" },
		{ path: join(cwd, PROJECT_ROOT_MCP_FILE_NAME), source: "project" },
		{ path: join(getProjectConfigDir(cwd), MCP_CONFIG_FILE_NAME), source: "project" },
	];
}

// A configuration file is small; a repository's `.mcp.json` may be anything (a FIFO, a link to /dev/zero).
const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

function readIfPresent(path: string): string | undefined {
	try {
		const { bytes, truncated } = readRegularFileSync(path, MAX_CONFIG_FILE_BYTES);
		if (truncated) throw new Error(`larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
		return bytes.toString("utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw error;
	}
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** The `mcpServers` object of a file's text; throws with the reason it is not one. */
export function parseMcpServersObject(text: string): Record<string, unknown> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new Error(`invalid JSON (${(error as Error).message})`);
	}
	if (!isPlainObject(parsed)) throw new Error('expected an object like {"mcpServers": {"name": {…}}}');
	const servers = parsed.mcpServers ?? {};
	if (!isPlainObject(servers)) throw new Error('"mcpServers" must be an object of servers by name');
	return servers;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` replaced from `env`; names of unset variables without a default in `missing`. */
export function expandEnvVars(value: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
	return value.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
		const current = env[name];
		if (current !== undefined && current !== "") return current;
		if (fallback !== undefined) return fallback;
		if (current === undefined) missing.add(name);
		return "";
	});
}

function expandHome(path: string): string {
	if (path === "~") return homedir();
	return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

interface ParseContext {
	name: string;
	source: McpConfigSource;
	configPath?: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Problems that leave the server usable (an invalid optional field is ignored). */
	warnings: string[];
}

function stringRecord(value: unknown, field: string, expand: (text: string) => string): Record<string, string> {
	if (value === undefined) return {};
	if (!isPlainObject(value) || !Object.values(value).every((item) => typeof item === "string")) {
		throw new Error(`"${field}" must be an object of strings`);
	}
	return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item as string)]));
}

function optionalString(entry: Record<string, unknown>, field: string): string | undefined {
	const value = entry[field];
	if (value === undefined) return undefined;
	if (typeof value !== "string") throw new Error(`"${field}" must be a string`);
	return value;
}

function parseOAuth(value: unknown, context: ParseContext, expand: (text: string) => string): McpOAuthConfig | false {
	if (value === undefined || value === true) return {};
	if (value === false) return false;
	if (!isPlainObject(value)) {
		context.warnings.push('"oauth" must be an object or false; ignored');
		return {};
	}
	const oauth: McpOAuthConfig = {};
	for (const field of ["clientId", "clientSecret", "scope"] as const) {
		const item = value[field];
		if (typeof item === "string") oauth[field] = expand(item);
		else if (item !== undefined) context.warnings.push(`"oauth.${field}" must be a string; ignored`);
	}
	const port = value.callbackPort;
	if (typeof port === "number" && Number.isInteger(port) && port > 0 && port < 65536) oauth.callbackPort = port;
	else if (port !== undefined) context.warnings.push('"oauth.callbackPort" must be a port number; ignored');
	return oauth;
}

const REMOTE_TYPES: Record<string, { transport: "http" | "sse" }> = {
	http: { transport: "http" },
	"streamable-http": { transport: "http" },
	streamableHttp: { transport: "http" },
	sse: { transport: "sse" },
};

/** One entry of `mcpServers`; throws with the reason the server cannot be used. */
export function parseMcpServerEntry(raw: unknown, context: ParseContext): McpServerConfig {
	if (!isPlainObject(raw)) throw new Error("expected an object");
	const missing = new Set<string>();
	const expand = (text: string) => expandEnvVars(text, context.env, missing);
	const base: McpServerConfigBase = {
		name: context.name,
		source: context.source,
		...(context.configPath !== undefined ? { configPath: context.configPath } : {}),
		enabled: raw.enabled !== false && raw.disabled !== true,
	};
	if (raw.enabled !== undefined && typeof raw.enabled !== "boolean")
		context.warnings.push('"enabled" must be true or false; ignored');
	if (raw.toolMode !== undefined) {
		if ((MCP_TOOL_MODES as readonly unknown[]).includes(raw.toolMode)) base.toolMode = raw.toolMode as McpToolMode;
		else context.warnings.push(`"toolMode" must be "direct" or "on-demand"; ignored`);
	}
	if (raw.timeout !== undefined) {
		if (typeof raw.timeout === "number" && Number.isFinite(raw.timeout) && raw.timeout > 0)
			base.timeoutMs = raw.timeout;
		else context.warnings.push('"timeout" must be a number of milliseconds; ignored');
	}

	const type = optionalString(raw, "type");
	const command = optionalString(raw, "command");
	const url = optionalString(raw, "url") ?? optionalString(raw, "httpUrl");
	let config: McpServerConfig;
	if (type === "stdio" || (type === undefined && command !== undefined)) {
		if (command === undefined || command.trim() === "") throw new Error('"command" is required for a stdio server');
		const args = raw.args ?? [];
		if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string"))
			throw new Error('"args" must be a list of strings');
		const cwd = optionalString(raw, "cwd");
		config = {
			...base,
			transport: "stdio",
			command: expandHome(expand(command)),
			args: args.map((arg: string) => expand(arg)),
			env: stringRecord(raw.env, "env", expand),
			...(cwd !== undefined ? { cwd: resolve(context.cwd, expandHome(expand(cwd))) } : {}),
		};
	} else if (url !== undefined && (type === undefined || REMOTE_TYPES[type])) {
		const expanded = expand(url);
		try {
			const parsed = new URL(expanded);
			if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error();
		} catch {
			if (missing.size === 0) throw new Error(`"url" is not an http(s) URL: ${expanded}`);
		}
		const remoteType = type !== undefined ? REMOTE_TYPES[type] : undefined;
		config = {
			...base,
			transport: remoteType?.transport ?? "http",
			url: expanded,
			headers: stringRecord(raw.headers, "headers", expand),
			sseFallback: type === undefined && raw.httpUrl === undefined,
			oauth: parseOAuth(raw.oauth, context, expand),
		};
	} else if (type !== undefined && type !== "stdio" && !REMOTE_TYPES[type]) {
		throw new Error(`unsupported "type" ${JSON.stringify(type)} (use "stdio", "http" or "sse")`);
	} else {
		throw new Error('needs "command" (a local server) or "url" (a remote server)');
	}
	if (missing.size > 0) {
		const names = [...missing];
		throw new Error(
			`environment variable${names.length > 1 ? "s" : ""} ${names.join(", ")} not set (write \${NAME:-default} for a default)`,
		);
	}
	return config;
}

/** Parses one file's servers; problems are returned as lines naming the file and the server. */
export function parseMcpConfigText(
	text: string,
	options: { path: string; source: McpConfigSource; cwd: string; env: NodeJS.ProcessEnv },
): { servers: McpServerConfig[]; errors: string[] } {
	const errors: string[] = [];
	let entries: Record<string, unknown>;
	try {
		entries = parseMcpServersObject(text);
	} catch (error) {
		return { servers: [], errors: [`${options.path}: ${(error as Error).message}; its MCP servers were not loaded`] };
	}
	const servers: McpServerConfig[] = [];
	for (const [name, raw] of Object.entries(entries)) {
		const context: ParseContext = { ...options, name, configPath: options.path, warnings: [] };
		try {
			if (name.trim() === "") throw new Error("a server needs a non-empty name");
			servers.push(parseMcpServerEntry(raw, context));
		} catch (error) {
			errors.push(`${options.path}: MCP server "${name}": ${(error as Error).message}; the server was not loaded`);
		}
		for (const warning of context.warnings) errors.push(`${options.path}: MCP server "${name}": ${warning}`);
	}
	return { servers, errors };
}

/**
 * The servers the project's own files configure (names only; nothing is validated or started), for project
 * trust to list while the project is not trusted.
 */
export function findProjectMcpServers(cwd: string, agentDir: string): ProjectMcpServer[] {
	const found: ProjectMcpServer[] = [];
	for (const file of mcpConfigFiles(cwd, agentDir)) {
		if (file.source !== "project") continue;
		try {
			const text = readIfPresent(file.path);
			if (text === undefined) continue;
			for (const name of Object.keys(parseMcpServersObject(text))) found.push({ name, file: file.path });
		} catch {
			// A file that cannot be read or parsed configures nothing that could start.
		}
	}
	return found;
}

/** Reads every MCP configuration file of the user and (when trusted) the project. Never starts anything. */
export function loadMcpConfig(options: LoadMcpConfigOptions): LoadedMcpConfig {
	const env = options.env ?? process.env;
	const errors: string[] = [];
	const byName = new Map<string, McpServerConfig>();
	for (const file of mcpConfigFiles(options.cwd, options.agentDir)) {
		if (file.source === "project" && !options.projectTrusted) continue;
		let text: string | undefined;
		try {
			text = readIfPresent(file.path);
		} catch (error) {
			errors.push(`${file.path}: could not be read (${(error as Error).message}); its MCP servers were not loaded`);
			continue;
		}
		if (text === undefined) continue;
		const parsed = parseMcpConfigText(text, { path: file.path, source: file.source, cwd: options.cwd, env });
		errors.push(...parsed.errors);
		for (const server of parsed.servers) {
			byName.delete(server.name);
			byName.set(server.name, server);
		}
	}
	return { servers: [...byName.values()], errors };
}

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} and ${VAR:-default} are the mcp.json syntax under test, not JS templates
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { expandEnvVars, findProjectMcpServers, loadMcpConfig, parseMcpConfigText } from "../../src/core/mcp/config.js";
import { mcpQualifiedName } from "../../src/core/mcp/tools.js";

let root: string;
let agentDir: string;
let cwd: string;

beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-config-")));
	agentDir = join(root, "agent");
	cwd = join(root, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(join(cwd, ".agent"), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, value: unknown) =>
	writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));

const parse = (value: unknown, env: NodeJS.ProcessEnv = {}) =>
	parseMcpConfigText(JSON.stringify(value), { path: "/x/mcp.json", source: "user", cwd: "/work", env });

describe("environment variables", () => {
	it("expands ${VAR} and ${VAR:-default}, and names variables that are not set", () => {
		const missing = new Set<string>();
		const env = { TOKEN: "t0k", EMPTY: "" };
		expect(expandEnvVars("Bearer ${TOKEN}", env, missing)).toBe("Bearer t0k");
		expect(expandEnvVars("${EMPTY:-fallback}/${NOPE:-d}", env, missing)).toBe("fallback/d");
		expect(expandEnvVars("$TOKEN ${TOKEN", env, missing)).toBe("$TOKEN ${TOKEN");
		expect(missing.size).toBe(0);
		expect(expandEnvVars("${NOPE}", env, missing)).toBe("");
		expect([...missing]).toEqual(["NOPE"]);
	});

	it("leaves text without variables unchanged", () => {
		fc.assert(
			fc.property(
				fc.string().filter((text) => !text.includes("${")),
				(text) => expandEnvVars(text, {}, new Set()) === text,
			),
		);
	});
});

describe("server entries", () => {
	it("reads the mcpServers shape other agents write", () => {
		const { servers, errors } = parse(
			{
				mcpServers: {
					github: {
						command: "npx",
						args: ["-y", "@modelcontextprotocol/server-github"],
						env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GH_PAT}" },
						cwd: "tools",
					},
					linear: { type: "http", url: "https://mcp.linear.app/mcp", headers: { "X-Team": "${TEAM:-core}" } },
					legacy: { type: "sse", url: "https://example.com/sse", oauth: false },
					guess: { url: "https://example.com/mcp", toolMode: "on-demand", timeout: 5000 },
					off: { command: "x", enabled: false },
					cline: { command: "y", disabled: true, alwaysAllow: [] },
				},
			},
			{ GH_PAT: "pat" },
		);
		expect(errors).toEqual([]);
		expect(servers).toEqual([
			{
				name: "github",
				source: "user",
				configPath: "/x/mcp.json",
				enabled: true,
				transport: "stdio",
				command: "npx",
				args: ["-y", "@modelcontextprotocol/server-github"],
				env: { GITHUB_PERSONAL_ACCESS_TOKEN: "pat" },
				cwd: "/work/tools",
			},
			expect.objectContaining({
				name: "linear",
				transport: "http",
				headers: { "X-Team": "core" },
				sseFallback: false,
				oauth: {},
			}),
			expect.objectContaining({ name: "legacy", transport: "sse", oauth: false }),
			expect.objectContaining({
				name: "guess",
				transport: "http",
				sseFallback: true,
				toolMode: "on-demand",
				timeoutMs: 5000,
			}),
			expect.objectContaining({ name: "off", enabled: false }),
			expect.objectContaining({ name: "cline", enabled: false }),
		]);
	});

	it("names the file and server of each problem, skips only unusable servers, ignores bad optional fields", () => {
		const { servers, errors } = parse({
			mcpServers: {
				good: { command: "ok" },
				noWay: { args: ["x"] },
				badArgs: { command: "x", args: "y" },
				secret: { url: "https://x/${API_HOST}/mcp" },
				ws: { type: "ws", url: "wss://x" },
				odd: { command: "ok", toolMode: "sometimes", timeout: -1 },
			},
		});
		expect(servers.map((server) => server.name)).toEqual(["good", "odd"]);
		expect(errors).toEqual([
			'/x/mcp.json: MCP server "noWay": needs "command" (a local server) or "url" (a remote server); the server was not loaded',
			'/x/mcp.json: MCP server "badArgs": "args" must be a list of strings; the server was not loaded',
			'/x/mcp.json: MCP server "secret": environment variable API_HOST not set (write ${NAME:-default} for a default); the server was not loaded',
			'/x/mcp.json: MCP server "ws": unsupported "type" "ws" (use "stdio", "http" or "sse"); the server was not loaded',
			'/x/mcp.json: MCP server "odd": "toolMode" must be "direct" or "on-demand"; ignored',
			'/x/mcp.json: MCP server "odd": "timeout" must be a number of milliseconds; ignored',
		]);
	});

	it("reports a file that is not JSON and loads nothing of it", () => {
		const result = parseMcpConfigText("{ nope", { path: "/x/mcp.json", source: "user", cwd: "/", env: {} });
		expect(result.servers).toEqual([]);
		expect(result.errors[0]).toMatch(/^\/x\/mcp\.json: invalid JSON \(.*\); its MCP servers were not loaded$/);
	});
});

describe("files and trust", () => {
	it("merges the user file with a trusted project's files, the project winning by name", () => {
		write(join(agentDir, "mcp.json"), { mcpServers: { shared: { command: "user" }, mine: { command: "m" } } });
		write(join(cwd, ".mcp.json"), { mcpServers: { shared: { command: "root" }, team: { command: "t" } } });
		write(join(cwd, ".agent", "mcp.json"), { mcpServers: { team: { command: "agent-dir" } } });
		const loaded = loadMcpConfig({ cwd, agentDir, projectTrusted: true, env: {} });
		expect(loaded.errors).toEqual([]);
		expect(
			loaded.servers.map((server) => [server.name, server.source, (server as { command: string }).command]),
		).toEqual([
			["mine", "user", "m"],
			["shared", "project", "root"],
			["team", "project", "agent-dir"],
		]);
	});

	it("reads nothing of an untrusted project's files; findProjectMcpServers names what waits for trust", () => {
		write(join(agentDir, "mcp.json"), { mcpServers: { mine: { command: "m" } } });
		write(join(cwd, ".mcp.json"), { mcpServers: { evil: { command: "rm" } } });
		write(join(cwd, ".agent", "mcp.json"), { mcpServers: { worse: { command: "curl" } } });
		const loaded = loadMcpConfig({ cwd, agentDir, projectTrusted: false, env: {} });
		expect(loaded.servers.map((server) => server.name)).toEqual(["mine"]);
		expect(loaded.errors).toEqual([]);
		expect(findProjectMcpServers(cwd, agentDir)).toEqual([
			{ name: "evil", file: join(cwd, ".mcp.json") },
			{ name: "worse", file: join(cwd, ".agent", "mcp.json") },
		]);
	});

	it("a project .mcp.json that is a FIFO is reported, never waited on", () => {
		execFileSync("mkfifo", [join(cwd, ".mcp.json")]);
		expect(findProjectMcpServers(cwd, agentDir)).toEqual([]);
		const loaded = loadMcpConfig({ cwd, agentDir, projectTrusted: true, env: {} });
		expect(loaded.servers).toEqual([]);
		expect(loaded.errors).toEqual([expect.stringContaining(`${join(cwd, ".mcp.json")}: could not be read`)]);
	});

	it("never rewrites a configuration file, even a broken one", () => {
		const broken = '{"mcpServers": {"a": {"command": "x"},}}';
		write(join(agentDir, "mcp.json"), broken);
		const loaded = loadMcpConfig({ cwd, agentDir, projectTrusted: false, env: {} });
		expect(loaded.errors).toHaveLength(1);
		expect(loaded.errors[0]).toContain(join(agentDir, "mcp.json"));
		expect(readFileSync(join(agentDir, "mcp.json"), "utf8")).toBe(broken);
	});
});

describe("tool names", () => {
	it("are mcp__<server>__<tool>, made of the characters providers accept, at most 64 long", () => {
		expect(mcpQualifiedName("github", "create_issue")).toBe("mcp__github__create_issue");
		expect(mcpQualifiedName("my server", "do.it")).toBe("mcp__my_server__do_it");
		fc.assert(
			fc.property(fc.string(), fc.string(), (server, tool) => {
				const name = mcpQualifiedName(server, tool);
				return /^[A-Za-z0-9_-]{1,64}$/.test(name) && name.startsWith("mcp__");
			}),
		);
		const long = "x".repeat(80);
		expect(mcpQualifiedName("a", long)).not.toBe(mcpQualifiedName("a", `${long}y`));
	});
});

// /mcp in the built `agent` binary under tmux: each server's state, tools and last error, one server's
// details, a restart, and a failing server reported as a notice.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_PATH, CLI_PATH, type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { FIXTURE_SERVER_PATH, stdioServerJson } from "../helpers/mcp-fixtures.js";
import { isTmuxAvailable, TmuxSession } from "../helpers/tmux-session.js";

const hasTmux = isTmuxAvailable();
const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
let tmux: TmuxSession | undefined;

beforeAll(() => {
	if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: build first (pnpm build)`);
});
afterEach(async () => {
	await tmux?.kill();
	tmux = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

describe.skipIf(!hasTmux)("/mcp in the terminal UI", () => {
	it("shows each server's state, tools and error, one server's details, and restarts one", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(
			join(sandbox.agentDir, "mcp.json"),
			JSON.stringify({
				mcpServers: {
					fixture: stdioServerJson(FIXTURE_SERVER_PATH),
					broken: stdioServerJson(FIXTURE_SERVER_PATH, [], { FIXTURE_EXIT_ON_START: "1" }),
				},
			}),
		);
		tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH], cwd: sandbox.cwd, env: sandbox.env });
		await tmux.waitFor("fake-model");
		// The failing server is reported once, as a notice, while the editor is already up.
		await tmux.waitFor('MCP server "broken" failed to start');

		// A search through the mcp tool waits for the servers' first attempt: afterwards the state is settled.
		server.enqueue(toolCallReply([{ name: "mcp", arguments: { query: "echo" } }]), textReply("Found the echo tool."));
		tmux.submit("find an echo tool");
		await tmux.waitFor("Found the echo tool.");

		tmux.submit("/mcp");
		const list = await tmux.waitFor("/mcp <server> shows a server's tools");
		expect(list).toContain("● fixture (stdio, user): connected, direct, 8 tools, 1 prompt");
		expect(list).toMatch(/broken \(stdio, user\): (reconnecting|failed) after \d failed attempts?: /);

		tmux.submit("/mcp fixture");
		const details = await tmux.waitFor("Stderr (last lines):");
		expect(details).toContain("mcp__fixture__echo — Echoes the message back");
		expect(details).toContain("/mcp__fixture__greet name [style] — Greets someone");
		expect(details).toContain("fixture: ready");

		tmux.submit("/mcp restart fixture");
		await tmux.waitFor('Restarting MCP server "fixture"');
		tmux.submit("/quit");
		expect(await tmux.waitForExit()).toBe(0);
	});

	it("stops its MCP servers when the agent is terminated (SIGTERM), exiting 143", async () => {
		const watcher = createServer();
		await new Promise<void>((resolve) => watcher.listen(0, "127.0.0.1", () => resolve()));
		const connected = new Promise<Socket>((resolve) => watcher.once("connection", resolve));
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(
			join(sandbox.agentDir, "mcp.json"),
			JSON.stringify({
				mcpServers: {
					watched: stdioServerJson(FIXTURE_SERVER_PATH, [], {
						FIXTURE_WATCH_PORT: String((watcher.address() as AddressInfo).port),
					}),
				},
			}),
		);
		tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH], cwd: sandbox.cwd, env: sandbox.env });
		const socket = await connected;
		const serverPid = await new Promise<number>((resolve) =>
			socket.once("data", (data) => resolve(Number(String(data).trim()))),
		);
		const serverGone = new Promise<void>((resolve) => socket.once("close", () => resolve()));
		// The server's parent is the agent.
		const stat = readFileSync(`/proc/${serverPid}/stat`, "utf8");
		const agentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
		process.kill(agentPid, "SIGTERM");
		expect(await tmux.waitForExit()).toBe(143);
		await serverGone;
		watcher.close();
	});
});

// The OS sandbox of the bash tool (`permissions.sandbox`), from the built binary: with bubblewrap a write
// outside the working directory and temp fails and the network is off unless allowed; without it the user is
// told and commands run as before.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bubblewrapArgs, detectSandbox, seatbeltProfile } from "../../src/core/permissions/sandbox.js";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import {
	type RecordedModelRequest,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

const status = process.platform === "linux" ? detectSandbox() : { available: false as const, reason: "not Linux" };
const hasBubblewrap = status.available;
if (!hasBubblewrap)
	console.warn(`bubblewrap cannot run here (${status.reason}) — the sandbox end-to-end tests are skipped`);

function newSandbox(sandboxSettings: Record<string, unknown>): { box: CliSandbox; tmp: string; outside: string } {
	sandbox = createCliSandbox({
		modelServerUrl: server.baseUrl,
		settings: { permissions: { sandbox: sandboxSettings } },
	});
	const tmp = join(sandbox.root, "tmp");
	const outside = join(sandbox.root, "outside");
	mkdirSync(tmp, { recursive: true });
	mkdirSync(outside, { recursive: true });
	// Temp is the one writable directory besides the project: here a directory of its own, so the rest of /tmp
	// (where the sandbox's root lives) is outside.
	sandbox.env.TMPDIR = tmp;
	return { box: sandbox, tmp, outside };
}

function lastToolResult(request: RecordedModelRequest | undefined): string {
	const results = (request?.body.messages ?? []).filter((message) => message.role === "tool");
	const content = results.at(-1)?.content;
	return typeof content === "string" ? content : JSON.stringify(content);
}

describe("the sandbox's command lines", () => {
	it("bubblewrap: the whole file system read-only, the project and temp writable, the network only when allowed", () => {
		const args = bubblewrapArgs("make", { cwd: "/p", network: false, shell: "/bin/bash", writableDirs: ["/t"] });
		expect(args).toEqual([
			"--ro-bind",
			"/",
			"/",
			"--dev",
			"/dev",
			"--proc",
			"/proc",
			"--bind",
			"/p",
			"/p",
			"--bind",
			"/t",
			"/t",
			"--unshare-pid",
			"--unshare-ipc",
			"--unshare-uts",
			"--die-with-parent",
			"--unshare-net",
			"--chdir",
			"/p",
			"--",
			"/bin/bash",
			"-c",
			"make",
		]);
		expect(bubblewrapArgs("make", { cwd: "/p", network: true, shell: "/bin/bash", writableDirs: [] })).not.toContain(
			"--unshare-net",
		);
	});

	it("sandbox-exec: writes denied except in the project and temp, the network denied unless allowed", () => {
		const profile = seatbeltProfile({ cwd: "/p", network: false, shell: "/bin/zsh", writableDirs: ['/t"x'] });
		expect(profile).toContain("(deny file-write*)");
		expect(profile).toContain('(allow file-write* (subpath "/p") (subpath "/t\\"x")');
		expect(profile).toContain("(deny network*)");
		expect(seatbeltProfile({ cwd: "/p", network: true, shell: "/bin/zsh", writableDirs: [] })).not.toContain(
			"(deny network*)",
		);
	});
});

describe.skipIf(!hasBubblewrap)("bash in the bubblewrap sandbox", () => {
	it("writes in the project and temp, cannot write outside them, and has no network", async () => {
		const { box, tmp, outside } = newSandbox({ enabled: true });
		const port = new URL(server.url).port;
		const command = [
			"touch inside.txt",
			`touch ${tmp}/in-temp.txt`,
			`(touch ${outside}/escaped.txt 2>&1 || true)`,
			`(exec 3<>/dev/tcp/127.0.0.1/${port} && echo network-on) 2>/dev/null || echo network-off`,
		].join("; ");
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command } }]), textReply("checked"));
		const result = await runCli(box, ["-p", "check the sandbox"], { env: { TMPDIR: tmp } });
		expect(result.code).toBe(0);
		expect(result.stderr).toContain(
			"Bash commands run in a bubblewrap sandbox: writes only to the working directory and temp, network off.",
		);
		expect(existsSync(join(box.cwd, "inside.txt"))).toBe(true);
		expect(existsSync(join(tmp, "in-temp.txt"))).toBe(true);
		expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
		const output = lastToolResult(server.requests[1]);
		expect(output).toContain("Read-only file system");
		expect(output).toContain("network-off");
	});

	it("lets commands use the network when the settings allow it", async () => {
		const { box, tmp } = newSandbox({ enabled: true, network: true });
		const port = new URL(server.url).port;
		const command = `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo network-on) 2>/dev/null || echo network-off`;
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command } }]), textReply("checked"));
		const result = await runCli(box, ["-p", "check"], { env: { TMPDIR: tmp } });
		expect(result.stderr).toContain("network on.");
		expect(lastToolResult(server.requests[1])).toContain("network-on");
	});
});

describe.skipIf(!hasBubblewrap)("a sandboxed command that runs too long", () => {
	it("is killed with everything it started when the tool's timeout ends it", async () => {
		const { box, tmp } = newSandbox({ enabled: true });
		const command = "sleep 60 & sleep 60; echo never";
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command, timeout: 1 } }]), textReply("timed out"));
		const result = await runCli(box, ["-p", "wait"], { env: { TMPDIR: tmp }, timeoutMs: 30_000 });
		expect(result.code).toBe(0);
		expect(lastToolResult(server.requests[1])).toContain("Command timed out after 1 seconds");
	});
});

describe("without a sandbox", () => {
	it("says so at start, and commands run as before", async () => {
		const { box } = newSandbox({ enabled: true });
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "echo still-runs" } }]), textReply("ok"));
		// No bwrap on this PATH (bash is found at /bin/bash).
		const result = await runCli(box, ["-p", "go"], { env: { PATH: join(box.root, "empty-bin") } });
		expect(result.stderr).toContain(
			process.platform === "linux"
				? "Sandbox unavailable: bubblewrap (bwrap) is not installed. Bash commands run without an OS sandbox; permission rules still apply."
				: "Sandbox unavailable:",
		);
		expect(lastToolResult(server.requests[1])).toContain("still-runs");
	});
});

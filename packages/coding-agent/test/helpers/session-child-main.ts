// Entry point of the child process started by session-child-process.ts.
//   append <sessionDir> <stopAfter>: appends entries as fast as it can, printing `COMMITTED <id>` after each
//     append returned (so the parent knows it is on disk), and `READY <file>` once the file exists.
//   hold <sessionFile>: opens the file (taking its lock), prints `HOLDING <pid>`, waits until stdin closes.
import { SessionManager } from "../../src/core/session/index.js";

const [mode, target, stopAfterText] = process.argv.slice(2);

function assistant(text: string, timestamp: number) {
	return {
		role: "assistant" as const,
		content: [{ type: "text" as const, text }],
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop" as const,
		timestamp,
	};
}

if (mode === "append" && target) {
	const session = SessionManager.create("/child", target);
	session.appendModelChange("anthropic", "claude-sonnet-4-5");
	session.appendMessage(assistant("first", Date.now()));
	process.stdout.write(`READY ${session.getSessionFile()}\n`);
	const stopAfter = Number(stopAfterText ?? "1000000");
	for (let i = 0; i < stopAfter; i++) {
		// Sizes from a few bytes to ~200 KB, so kills land inside large writes too.
		const text = "x".repeat(i % 7 === 0 ? 200_000 : (i * 977) % 5000);
		const id =
			i % 2 === 0
				? session.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() })
				: session.appendMessage(assistant(text, Date.now()));
		process.stdout.write(`COMMITTED ${id}\n`);
	}
	process.stdout.write("DONE\n");
} else if (mode === "hold" && target) {
	const session = SessionManager.open(target);
	process.stdout.write(`HOLDING ${process.pid}\n`);
	process.stdin.resume();
	process.stdin.on("end", () => {
		session.close();
		process.exit(0);
	});
} else {
	process.stderr.write(`unknown mode ${mode}\n`);
	process.exit(2);
}

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentTool, AgentToolResult } from "@agent/agent-core";
import { type ToolCall, validateToolArguments } from "@agent/ai";
import { findExternalTool } from "@agent/coding-agent";
import { afterEach, beforeEach, expect } from "vitest";

/** A fresh real temp directory per test (realpath'd, so macOS /private/var matches what tools report). */
export function useTempDir(prefix = "agent-tools-"): () => string {
	let dir: string | undefined;
	beforeEach(() => {
		dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	});
	afterEach(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
		dir = undefined;
	});
	return () => {
		if (!dir) throw new Error("useTempDir: no directory outside a test");
		return dir;
	};
}

/**
 * Points `os.tmpdir()` (TMPDIR) at the test's temp directory, so files the tools leave there for the
 * model (bash's full-output logs) are removed with it. Call after `useTempDir`.
 */
export function redirectTmpdir(tempDir: () => string): void {
	let saved: string | undefined;
	beforeEach(() => {
		saved = process.env.TMPDIR;
		process.env.TMPDIR = tempDir();
	});
	afterEach(() => {
		if (saved === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = saved;
	});
}

/** Writes files (creating parents) under `root`; a Buffer value is written as is. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
	for (const [relativePath, content] of Object.entries(files)) {
		const path = join(root, relativePath);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, content);
	}
}

/** The text parts of a result, joined with newlines. */
export function textOf(result: AgentToolResult<unknown>): string {
	return result.content
		.filter((part): part is { type: "text"; text: string } => part.type === "text")
		.map((part) => part.text)
		.join("\n");
}

/** Calls a tool as the agent loop does after validation. */
export function run<TDetails>(
	tool: AgentTool<never, TDetails> | AgentTool,
	args: Record<string, unknown>,
	signal?: AbortSignal,
	onUpdate?: (partial: AgentToolResult<unknown>) => void,
): Promise<AgentToolResult<TDetails>> {
	return (tool as AgentTool).execute("call-1", args as never, signal, onUpdate) as Promise<AgentToolResult<TDetails>>;
}

/** The message a tool call rejects with (fails the test when it resolves). */
export async function errorOf(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
	expect.fail("expected the tool call to fail");
}

/** Validates arguments the way the agent loop does before `execute`. */
export function validateArgs(tool: AgentTool, args: Record<string, unknown>): Record<string, unknown> {
	const call: ToolCall = { type: "toolCall", id: "call-1", name: tool.name, arguments: args };
	return validateToolArguments(tool, call);
}

export const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Engines a search tool's suite runs with; the external one is skipped (with its reason) when not installed. */
export function searchEngines<TExternal extends "rg" | "fd">(
	external: TExternal,
): { engine: "builtin" | TExternal; skipReason?: string }[] {
	const available = findExternalTool(external) !== undefined;
	return [
		{ engine: "builtin" },
		{ engine: external, skipReason: available ? undefined : `${external} is not installed on PATH` },
	];
}

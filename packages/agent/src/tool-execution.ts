import { type AssistantMessage, prepareToolValidation, type ToolResultMessage, validateToolArguments } from "@agent/ai";
import {
	CUT_OFF_AT_LENGTH_TEXT,
	createToolResultMessage,
	errorMessageOf,
	invalidArgumentsText,
	normalizeToolResult,
	SIBLING_INVALID_TEXT,
	SKIPPED_FOR_ABORT_TEXT,
	SKIPPED_FOR_STEERING_TEXT,
	TOOL_BLOCKED_TEXT,
	textResult,
	toolNotFoundText,
} from "./tool-result.js";
import type {
	AgentContext,
	AgentEventSink,
	AgentLoopConfig,
	AgentMessage,
	AgentTool,
	AgentToolCall,
	AgentToolResult,
} from "./types.js";

/** What one batch of tool calls (one assistant message) needs from the loop. */
export interface ToolBatch {
	assistantMessage: AssistantMessage;
	toolCalls: AgentToolCall[];
	/** The loop's current context; passed to the hooks. */
	context: AgentContext;
	config: AgentLoopConfig;
	signal: AbortSignal | undefined;
	emit: AgentEventSink;
}

export interface ToolBatchOutcome {
	/** One result per tool call, in emission order. */
	toolResults: ToolResultMessage[];
	/** Steering messages found while the batch ran; the loop delivers them before the next model call. */
	steeringMessages?: AgentMessage[];
}

/** Outcome of preparing a call: an immediate error, or a tool ready to run with validated arguments. */
type Preparation =
	| { kind: "immediate"; result: AgentToolResult }
	| { kind: "prepared"; tool: AgentTool; args: Record<string, unknown> };

interface Execution {
	result: AgentToolResult;
	isError: boolean;
	/** A failure of the event sink while reporting an update; rethrown when the call is finalized. */
	sinkFailure?: { error: unknown };
}

/** Runs the tool calls of one assistant message in the configured mode (default "parallel"). */
export function executeToolCalls(batch: ToolBatch): Promise<ToolBatchOutcome> {
	return (batch.config.toolExecution ?? "parallel") === "sequential"
		? executeSequentially(batch)
		: executeInParallel(batch);
}

async function executeSequentially(batch: ToolBatch): Promise<ToolBatchOutcome> {
	const toolResults: ToolResultMessage[] = [];
	for (let index = 0; index < batch.toolCalls.length; index++) {
		const toolCall = batch.toolCalls[index];
		await emitStart(batch, toolCall);
		toolResults.push(await runToolCall(batch, toolCall));

		const steeringMessages = await pollSteering(batch);
		if (steeringMessages.length > 0) {
			for (const remaining of batch.toolCalls.slice(index + 1)) {
				await emitStart(batch, remaining);
				toolResults.push(await emitOutcome(batch, remaining, textResult(SKIPPED_FOR_STEERING_TEXT), true));
			}
			return { toolResults, steeringMessages };
		}
	}
	return { toolResults };
}

async function runToolCall(batch: ToolBatch, toolCall: AgentToolCall): Promise<ToolResultMessage> {
	// Ours: after an abort, calls that have not started are answered without running them. The reference
	// runs them with the aborted signal and relies on every tool checking it before doing anything.
	if (batch.signal?.aborted) return emitOutcome(batch, toolCall, textResult(SKIPPED_FOR_ABORT_TEXT), true);
	const preparation = await prepareToolCall(batch, toolCall);
	if (preparation.kind === "immediate") return emitOutcome(batch, toolCall, preparation.result, true);
	if (batch.signal?.aborted) return emitOutcome(batch, toolCall, textResult(SKIPPED_FOR_ABORT_TEXT), true);
	const execution = await executePrepared(batch, toolCall, preparation);
	return finalizeAndEmit(batch, toolCall, preparation.args, execution);
}

async function executeInParallel(batch: ToolBatch): Promise<ToolBatchOutcome> {
	const toolResults: ToolResultMessage[] = [];
	const prepared: { toolCall: AgentToolCall; preparation: Extract<Preparation, { kind: "prepared" }> }[] = [];

	// Preflight, in source order: start, prepare, and report immediate outcomes at once.
	for (let index = 0; index < batch.toolCalls.length; index++) {
		const toolCall = batch.toolCalls[index];
		await emitStart(batch, toolCall);
		if (batch.signal?.aborted) {
			toolResults.push(await emitOutcome(batch, toolCall, textResult(SKIPPED_FOR_ABORT_TEXT), true));
			continue;
		}
		const preparation = await prepareToolCall(batch, toolCall);
		if (preparation.kind === "immediate") {
			toolResults.push(await emitOutcome(batch, toolCall, preparation.result, true));
		} else {
			prepared.push({ toolCall, preparation });
		}

		const steeringMessages = await pollSteering(batch);
		if (steeringMessages.length > 0) {
			// Prepared calls already reported their start; the calls not yet preflighted report it now.
			for (const entry of prepared) {
				toolResults.push(await emitOutcome(batch, entry.toolCall, textResult(SKIPPED_FOR_STEERING_TEXT), true));
			}
			for (const remaining of batch.toolCalls.slice(index + 1)) {
				await emitStart(batch, remaining);
				toolResults.push(await emitOutcome(batch, remaining, textResult(SKIPPED_FOR_STEERING_TEXT), true));
			}
			return { toolResults, steeringMessages };
		}
	}

	if (batch.signal?.aborted) {
		for (const entry of prepared) {
			toolResults.push(await emitOutcome(batch, entry.toolCall, textResult(SKIPPED_FOR_ABORT_TEXT), true));
		}
		return { toolResults };
	}

	// Prepared calls run at once, up to `maxParallelToolCalls` (ours: the reference starts every call of a
	// reply together, so a reply with 200 bash calls started 200 processes); the rest start as earlier ones
	// finish. Each is finalized and reported in source order, so a call that finishes early waits for those
	// before it, and every result carries its own call's id.
	const limit = Math.max(1, Math.floor(batch.config.maxParallelToolCalls ?? DEFAULT_MAX_PARALLEL_TOOL_CALLS));
	const slots = new Slots(limit);
	const running = prepared.map((entry) => ({
		...entry,
		// A call still queued when the run is aborted never starts.
		execution: slots.run(async () =>
			batch.signal?.aborted ? undefined : executePrepared(batch, entry.toolCall, entry.preparation),
		),
	}));
	for (const entry of running) {
		const execution = await entry.execution;
		toolResults.push(
			execution
				? await finalizeAndEmit(batch, entry.toolCall, entry.preparation.args, execution)
				: await emitOutcome(batch, entry.toolCall, textResult(SKIPPED_FOR_ABORT_TEXT), true),
		);
	}

	const steeringMessages = await pollSteering(batch);
	return steeringMessages.length > 0 ? { toolResults, steeringMessages } : { toolResults };
}

/** A counting semaphore: at most `size` tasks run at once, the rest start in the order they were queued. */
class Slots {
	private active = 0;
	private readonly waiting: (() => void)[] = [];

	constructor(private readonly size: number) {}

	async run<T>(task: () => Promise<T>): Promise<T> {
		if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
		else this.active++;
		try {
			return await task();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.active--;
		}
	}
}

async function pollSteering(batch: ToolBatch): Promise<AgentMessage[]> {
	// After an abort the run ends with this turn, so queued messages stay queued for the next run.
	if (!batch.config.getSteeringMessages || batch.signal?.aborted) return [];
	return (await batch.config.getSteeringMessages()) ?? [];
}

function emitStart(batch: ToolBatch, toolCall: AgentToolCall): void | Promise<void> {
	return batch.emit({
		type: "tool_execution_start",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		args: toolCall.arguments,
	});
}

/** Default of `maxParallelToolCalls`. */
export const DEFAULT_MAX_PARALLEL_TOOL_CALLS = 8;

/**
 * Why a call must not run although the model asked for it: the reply stopped at the output limit, or some
 * call's argument JSON did not arrive complete. Only a reply that ended normally has its calls executed.
 */
function refusalOf(assistant: AssistantMessage, toolCall: AgentToolCall): string | undefined {
	if (assistant.stopReason === "length") return CUT_OFF_AT_LENGTH_TEXT;
	if (toolCall.invalidArguments !== undefined) return invalidArgumentsText(toolCall.invalidArguments);
	const hasInvalidSibling = assistant.content.some(
		(block) => block.type === "toolCall" && block.invalidArguments !== undefined,
	);
	return hasInvalidSibling ? SIBLING_INVALID_TEXT : undefined;
}

async function prepareToolCall(batch: ToolBatch, toolCall: AgentToolCall): Promise<Preparation> {
	const refusal = refusalOf(batch.assistantMessage, toolCall);
	if (refusal) return { kind: "immediate", result: textResult(refusal) };
	const tool = batch.context.tools?.find((candidate) => candidate.name === toolCall.name);
	if (!tool) return { kind: "immediate", result: textResult(toolNotFoundText(toolCall.name)) };

	let args: Record<string, unknown>;
	try {
		await prepareToolValidation([tool]);
		args = validateToolArguments(tool, toolCall);
	} catch (error) {
		// The validation message lists every violation and the arguments received, so the model can retry.
		return { kind: "immediate", result: textResult(errorMessageOf(error)) };
	}

	if (batch.config.beforeToolCall) {
		try {
			const decision = await batch.config.beforeToolCall(
				{ assistantMessage: batch.assistantMessage, toolCall, args, context: batch.context },
				batch.signal,
			);
			if (decision?.block) return { kind: "immediate", result: textResult(decision.reason || TOOL_BLOCKED_TEXT) };
		} catch (error) {
			return { kind: "immediate", result: textResult(errorMessageOf(error)) };
		}
	}
	return { kind: "prepared", tool, args };
}

/** Runs the tool. Never rejects: a throwing tool becomes an error result. */
async function executePrepared(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	preparation: Extract<Preparation, { kind: "prepared" }>,
): Promise<Execution> {
	const updateEmissions: Promise<void>[] = [];
	let sinkFailure: { error: unknown } | undefined;
	let settled = false;
	const onUpdate = (partialResult: AgentToolResult) => {
		// Ours: an update that arrives after the tool settled would follow tool_execution_end; drop it.
		if (settled) return;
		const recordFailure = (error: unknown) => {
			sinkFailure ??= { error };
		};
		try {
			const emission = batch.emit({
				type: "tool_execution_update",
				toolCallId: toolCall.id,
				toolName: toolCall.name,
				args: toolCall.arguments,
				partialResult,
			});
			if (emission) updateEmissions.push(emission.catch(recordFailure));
		} catch (error) {
			// Never thrown into the tool: it would look like the tool failed.
			recordFailure(error);
		}
	};

	let result: AgentToolResult;
	let isError = false;
	try {
		result = normalizeToolResult(
			await preparation.tool.execute(toolCall.id, preparation.args, batch.signal, onUpdate),
		);
	} catch (error) {
		result = textResult(errorMessageOf(error));
		isError = true;
	}
	settled = true;
	await Promise.all(updateEmissions);
	return sinkFailure ? { result, isError, sinkFailure } : { result, isError };
}

/** Applies `afterToolCall` (each returned field replaces the tool's wholesale) and reports the outcome. */
async function finalizeAndEmit(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	args: Record<string, unknown>,
	execution: Execution,
): Promise<ToolResultMessage> {
	if (execution.sinkFailure) throw execution.sinkFailure.error;
	let { result, isError } = execution;
	if (batch.config.afterToolCall) {
		try {
			const override = await batch.config.afterToolCall(
				{ assistantMessage: batch.assistantMessage, toolCall, args, result, isError, context: batch.context },
				batch.signal,
			);
			if (override) {
				result = {
					content: override.content ?? result.content,
					details: override.details !== undefined ? override.details : result.details,
				};
				if (override.isError !== undefined) isError = override.isError;
			}
		} catch (error) {
			// Ours: the reference lets this escape and end the run, leaving the call without a result. Treated
			// like a throwing `beforeToolCall`: the call is answered with the hook's error.
			result = textResult(errorMessageOf(error));
			isError = true;
		}
	}
	return emitOutcome(batch, toolCall, result, isError);
}

async function emitOutcome(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	result: AgentToolResult,
	isError: boolean,
): Promise<ToolResultMessage> {
	await batch.emit({ type: "tool_execution_end", toolCallId: toolCall.id, toolName: toolCall.name, result, isError });
	const message = createToolResultMessage(toolCall, result, isError);
	await batch.emit({ type: "message_start", message });
	await batch.emit({ type: "message_end", message });
	return message;
}

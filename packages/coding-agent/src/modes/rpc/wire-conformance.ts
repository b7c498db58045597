// The server's half of the RPC contract, checked by the compiler: what the session hands to the wire is exactly
// what protocol.ts defines, field for field (not merely assignable: a field added to an internal type fails
// here too). When a check fails, either the wire changes on purpose (protocol.ts and docs/rpc.md, which
// clients read) or the value is converted before it is sent.
import type { QueueMode } from "@agent/agent-core";
import type { CompactionResult } from "../../core/compaction/compaction.js";
import type { PermissionMode } from "../../core/permissions/modes.js";
import type {
	AgentSessionEvent,
	BashResult,
	ModelCycleResult,
	SessionStats,
	SlashCommandInfo,
} from "../../core/session-runtime/events.js";
import type {
	RpcBashResult,
	RpcCompactionResult,
	RpcEvent,
	RpcModelCycleResult,
	RpcPermissionMode,
	RpcQueueMode,
	RpcSessionStats,
	RpcSlashCommand,
} from "./protocol.js";

/** True when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Fails to compile unless its argument is `true`; the error names what differs. */
type Expect<T extends true> = T;

export type WireConformance = [
	// Every event, as one union (to find the one that differs, compare the members of the two unions).
	Expect<Same<RpcEvent, AgentSessionEvent>>,
	Expect<Same<RpcQueueMode, QueueMode>>,
	Expect<Same<RpcPermissionMode, PermissionMode>>,
	Expect<Same<RpcSessionStats, SessionStats>>,
	Expect<Same<RpcModelCycleResult, ModelCycleResult>>,
	Expect<Same<RpcCompactionResult, CompactionResult>>,
	Expect<Same<RpcBashResult, BashResult>>,
	Expect<Same<RpcSlashCommand, SlashCommandInfo>>,
];

/** A session event as it goes on the wire: the same object, its shape checked above. */
export function toRpcEvent(event: AgentSessionEvent): RpcEvent {
	return event;
}

// A session whose every field holds markup that would run script if it reached the page unescaped.

/** Closes a script element, then tries an event handler and a script of its own; quotes and an ampersand too. */
export const ATTACK = `</script><img src=x onerror=alert(1)><script>window.__pwned=2</script>"'&`;

export function hostileSessionText(): string {
	const ts = "2025-01-15T09:30:13.000Z";
	const lines: unknown[] = [
		{ type: "session", version: 3, id: ATTACK, timestamp: ATTACK, cwd: ATTACK, parentSession: ATTACK },
		{ type: "model_change", id: "m1", parentId: null, timestamp: ts, provider: ATTACK, modelId: ATTACK },
		{ type: "thinking_level_change", id: "t1", parentId: "m1", timestamp: ts, thinkingLevel: ATTACK },
		{
			type: "message",
			id: `"><img src=x onerror=alert(3)>`,
			parentId: "t1",
			timestamp: ATTACK,
			message: {
				role: "user",
				content: [
					{ type: "text", text: ATTACK },
					{ type: "image", mimeType: "image/svg+xml", data: "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" },
					{ type: "image", mimeType: "image/png", data: `x" onerror="alert(4)` },
				],
				timestamp: 1,
			},
		},
		{
			type: "message",
			id: "a1",
			parentId: `"><img src=x onerror=alert(3)>`,
			timestamp: ts,
			message: {
				role: "assistant",
				content: [
					{ type: "thinking", thinking: ATTACK },
					{
						type: "text",
						text: `# ${ATTACK}\n[click](javascript:alert(5)) [ok](https://example.com/?a="b"&c=<d>)\n\`\`\`${ATTACK}\n${ATTACK}\n\`\`\`\n| ${ATTACK} | b |\n|---|---|\n| **${ATTACK}** | \`${ATTACK}\` |\n> ${ATTACK}\n- ${ATTACK}`,
					},
					{ type: "toolCall", id: ATTACK, name: ATTACK, arguments: { command: ATTACK, nested: { x: ATTACK } } },
					{ type: "toolCall", id: "c2", name: "bash", arguments: { command: ATTACK, timeout: ATTACK } },
					{
						type: "toolCall",
						id: "c3",
						name: "edit",
						arguments: { path: ATTACK, oldText: ATTACK, newText: ATTACK },
					},
					{ type: "toolCall", id: "c4", name: "write", arguments: { path: ATTACK, content: ATTACK } },
					{ type: "toolCall", id: "c5", name: "grep", arguments: { pattern: ATTACK, path: ATTACK, glob: ATTACK } },
				],
				provider: ATTACK,
				model: ATTACK,
				usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0 } },
				stopReason: "error",
				errorMessage: ATTACK,
				timestamp: 2,
			},
		},
		{
			type: "message",
			id: "r1",
			parentId: "a1",
			timestamp: ts,
			message: {
				role: "toolResult",
				toolCallId: ATTACK,
				toolName: ATTACK,
				content: [{ type: "text", text: ATTACK }],
				details: { diff: ATTACK, fullOutputPath: ATTACK, truncation: { truncated: true } },
				isError: false,
				timestamp: 3,
			},
		},
		{
			type: "message",
			id: "x1",
			parentId: "r1",
			timestamp: ts,
			message: {
				role: "bashExecution",
				command: ATTACK,
				output: ATTACK,
				cancelled: true,
				truncated: true,
				fullOutputPath: ATTACK,
				timestamp: 4,
			},
		},
		{
			type: "custom_message",
			customType: ATTACK,
			content: ATTACK,
			display: false,
			id: "cm",
			parentId: "x1",
			timestamp: ts,
		},
		{ type: "custom", customType: ATTACK, data: { html: ATTACK }, id: "cu", parentId: "cm", timestamp: ts },
		{
			type: "compaction",
			id: "co",
			parentId: "cu",
			timestamp: ts,
			summary: ATTACK,
			firstKeptEntryId: ATTACK,
			tokensBefore: 10,
			details: { readFiles: [ATTACK], modifiedFiles: [ATTACK] },
		},
		{ type: "branch_summary", id: "bs", parentId: "co", timestamp: ts, fromId: ATTACK, summary: ATTACK },
		{ type: "label", id: "la", parentId: "bs", timestamp: ts, targetId: ATTACK, label: ATTACK },
		{ type: "label", id: "lb", parentId: "la", timestamp: ts, targetId: "a1", label: ATTACK },
		{ type: "session_info", id: "si", parentId: "lb", timestamp: ts, name: ATTACK },
		// A sibling branch, so fork summaries carry session text too.
		{
			type: "message",
			id: "u2",
			parentId: "t1",
			timestamp: "2025-01-15T09:30:12.000Z",
			message: { role: "user", content: ATTACK, timestamp: 5 },
		},
	];
	return lines.map((line) => JSON.stringify(line)).join("\n");
}

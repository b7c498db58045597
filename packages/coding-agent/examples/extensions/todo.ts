// A todo list the model keeps while it works through a multi-step task. The list lives in the tool results'
// `details`, so it follows the session tree: after /tree, /fork or a resume, the list is the one of that
// branch. `/todos` shows it to the user.

import { StringEnum, Type } from "@agent/ai";
import type { ExtensionAPI, ExtensionContext } from "@agent/coding-agent";
import { Text } from "@agent/tui";

export interface Todo {
	id: number;
	text: string;
	done: boolean;
}

export interface TodoDetails {
	todos: Todo[];
	/** What this call did, for the renderer. */
	action: "list" | "add" | "toggle" | "clear";
}

const parameters = Type.Object({
	action: StringEnum(["list", "add", "toggle", "clear"] as const, { description: "What to do with the list" }),
	text: Type.Optional(Type.String({ description: "The item to add (action: add)" })),
	id: Type.Optional(Type.Number({ description: "The item to check or uncheck (action: toggle)" })),
});

export function formatTodos(todos: readonly Todo[]): string {
	if (todos.length === 0) return "The todo list is empty.";
	return todos.map((todo) => `${todo.done ? "[x]" : "[ ]"} ${todo.id}. ${todo.text}`).join("\n");
}

/** The list as of the current branch: the details of the last todo result on it. */
function listOnBranch(ctx: ExtensionContext): Todo[] {
	let todos: Todo[] = [];
	for (const entry of ctx.sessionManager.getBranch()) {
		if (entry.type !== "message") continue;
		const message = entry.message;
		if (message.role === "toolResult" && message.toolName === "todo" && message.details) {
			todos = (message.details as TodoDetails).todos;
		}
	}
	return todos.map((todo) => ({ ...todo }));
}

export default function todoExtension(pi: ExtensionAPI): void {
	let todos: Todo[] = [];
	const restore = (_event: unknown, ctx: ExtensionContext) => {
		todos = listOnBranch(ctx);
	};
	pi.on("session_start", restore);
	pi.on("session_switch", restore);
	pi.on("session_fork", restore);
	pi.on("session_tree", restore);

	pi.registerTool<typeof parameters, TodoDetails>({
		name: "todo",
		label: "Todo",
		description: "Keep a todo list for multi-step work: list, add an item, toggle an item done, or clear the list.",
		promptSnippet: "Track the steps of multi-step work in a todo list",
		promptGuidelines: ["For work with three or more steps, add them to the todo list first and tick them off."],
		parameters,
		async execute(_toolCallId, params) {
			switch (params.action) {
				case "add": {
					if (!params.text) throw new Error("action add needs a text");
					const id = todos.reduce((max, todo) => Math.max(max, todo.id), 0) + 1;
					todos = [...todos, { id, text: params.text, done: false }];
					break;
				}
				case "toggle": {
					const todo = todos.find((item) => item.id === params.id);
					if (!todo) throw new Error(`No todo item with id ${params.id}`);
					todos = todos.map((item) => (item === todo ? { ...item, done: !item.done } : item));
					break;
				}
				case "clear":
					todos = [];
					break;
				case "list":
					break;
			}
			return {
				content: [{ type: "text", text: formatTodos(todos) }],
				details: { todos: todos.map((todo) => ({ ...todo })), action: params.action },
			};
		},
		renderCall(args, theme) {
			const detail = args.action === "add" ? ` ${args.text ?? ""}` : args.action === "toggle" ? ` #${args.id}` : "";
			return new Text(`${theme.bold("todo")} ${args.action}${detail}`, 0, 0);
		},
		renderResult(result, { expanded }, theme) {
			const list = result.details?.todos ?? [];
			const open = list.filter((todo) => !todo.done).length;
			const summary = theme.fg("muted", `${open} open, ${list.length - open} done`);
			return new Text(expanded ? `${formatTodos(list)}\n${summary}` : summary, 0, 0);
		},
	});

	pi.registerCommand("todos", {
		description: "Show the todo list of this branch",
		handler: async (_args, ctx) => {
			ctx.ui.notify(formatTodos(todos), "info");
		},
	});
}

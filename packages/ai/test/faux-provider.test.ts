import { afterEach, describe, expect, it } from "vitest";
import {
	complete,
	createFauxProvider,
	type FauxProvider,
	fauxError,
	fauxText,
	fauxToolCall,
	stream,
	Type,
} from "../src/index.js";
import type { AssistantMessageEvent } from "../src/types.js";

let faux: FauxProvider | undefined;
afterEach(() => faux?.unregister());

describe("faux provider", () => {
	it("streams text in chunks through the registry and records the request", async () => {
		faux = createFauxProvider();
		faux.enqueue(fauxText("Hello from the scripted provider", { usage: { input: 10, output: 5 } }));
		const model = faux.model();
		const events: AssistantMessageEvent["type"][] = [];
		const s = stream(model, { systemPrompt: "sys", messages: [{ role: "user", content: "hi", timestamp: 1 }] });
		for await (const event of s) events.push(event.type);
		const message = await s.result();
		expect(events[0]).toBe("start");
		expect(events.filter((t) => t === "text_delta").length).toBeGreaterThan(1);
		expect(events.at(-1)).toBe("done");
		expect(message.content).toEqual([{ type: "text", text: "Hello from the scripted provider" }]);
		expect(message.usage.totalTokens).toBe(15);
		expect(faux.requests[0].context.systemPrompt).toBe("sys");
	});

	it("streams tool-call arguments as partial JSON and ends with stopReason toolUse", async () => {
		faux = createFauxProvider();
		faux.enqueue(fauxToolCall("read", { path: "src/index.ts", offset: 10 }, { chunkSize: 4 }));
		const tool = { name: "read", description: "r", parameters: Type.Object({ path: Type.String() }) };
		const s = stream(faux.model(), { messages: [], tools: [tool] });
		const partials: unknown[] = [];
		for await (const event of s)
			if (event.type === "toolcall_delta") partials.push(structuredClone(event.partial.content[0]));
		const message = await s.result();
		expect(partials.length).toBeGreaterThan(3);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content[0]).toMatchObject({
			type: "toolCall",
			name: "read",
			arguments: { path: "src/index.ts", offset: 10 },
		});
	});

	it("a failed request ends with an error event and no start", async () => {
		faux = createFauxProvider();
		faux.enqueue(fauxError("429 rate limit exceeded"));
		const s = stream(faux.model(), { messages: [] });
		const types: string[] = [];
		for await (const event of s) types.push(event.type);
		expect(types).toEqual(["error"]);
		const message = await s.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("429 rate limit exceeded");
	});

	it("abort mid-stream keeps the partial content and reports aborted", async () => {
		faux = createFauxProvider();
		faux.enqueue(fauxText("a long answer that streams slowly", { chunkSize: 2, chunkDelayMs: 5 }));
		const controller = new AbortController();
		const s = stream(faux.model(), { messages: [] }, { signal: controller.signal });
		for await (const event of s) if (event.type === "text_delta") controller.abort();
		const message = await s.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect((message.content[0] as { text: string }).text.length).toBeGreaterThan(0);
	});

	it("reports an empty queue as an error instead of hanging", async () => {
		faux = createFauxProvider();
		const message = await complete(faux.model(), { messages: [] });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/no scripted response/);
	});
});

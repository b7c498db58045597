import { FauxProvider, type Message, transformMessages } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

function entryTypes(h: RuntimeHarness): string[] {
	return h.sessionManager.getEntries().map((entry) => entry.type);
}

describe("switching models mid-session", () => {
	it("moves to another provider, records it, and hands over a history the new provider can replay", async () => {
		const other = new FauxProvider({ api: "faux-other-api", provider: "other" });
		harness = await createRuntimeHarness({ otherProviders: [{ faux: other, models: [{ id: "other-1" }] }] });
		harness.faux.enqueue({
			content: [
				{ type: "thinking", thinking: "private reasoning", thinkingSignature: "sig-from-faux" },
				{ type: "text", text: "first answer" },
			],
		});
		other.enqueue({ content: [{ type: "text", text: "second answer" }] });
		await harness.session.prompt("first");

		const target = harness.modelRegistry.find("other", "other-1");
		await harness.session.setModel(target!);
		await harness.session.prompt("second");

		expect(harness.session.model?.provider).toBe("other");
		expect(other.requests).toHaveLength(1);
		expect(harness.sessionManager.getEntries().at(-3)).toMatchObject({
			type: "model_change",
			provider: "other",
			modelId: "other-1",
		});
		expect(harness.settingsManager.getGlobalSettings()).toMatchObject({
			defaultProvider: "other",
			defaultModel: "other-1",
		});
		// The session hands over the full history; the receiving provider's conversion turns the foreign
		// thinking into something it accepts (real providers apply transformMessages before sending).
		const handedOver = other.requests[0]?.context.messages as Message[];
		expect(handedOver.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		const replayable = transformMessages(handedOver, target!);
		const foreignTurn = replayable[1];
		expect(foreignTurn?.role === "assistant" && foreignTurn.content.some((block) => block.type === "thinking")).toBe(
			false,
		);
		expect(JSON.stringify(replayable)).not.toContain("sig-from-faux");
	});

	it("refuses a model whose provider has no API key and keeps the current one", async () => {
		harness = await createRuntimeHarness();
		const withoutKey = harness.modelRegistry.getAll().find((model) => model.provider === "anthropic");
		await expect(harness.session.setModel(withoutKey!)).rejects.toThrow(`No API key for anthropic/${withoutKey?.id}`);
		expect(harness.session.model?.provider).toBe("faux");
		expect(await harness.session.trySetModel(withoutKey!)).toBe(false);
	});

	it("cycles through available models, or through the scoped ones with their levels", async () => {
		harness = await createRuntimeHarness({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		expect(await harness.session.cycleModel()).toMatchObject({ model: { id: "faux-2" }, isScoped: false });
		expect((await harness.session.cycleModel())?.model.id).toBe("faux-1");

		const [first, second] = [
			harness.modelRegistry.find("faux", "faux-1")!,
			harness.modelRegistry.find("faux", "faux-2")!,
		];
		harness.session.setScopedModels([{ model: first }, { model: second, thinkingLevel: "low" }]);
		expect(await harness.session.cycleModel()).toEqual({ model: second, thinkingLevel: "low", isScoped: true });
		expect(entryTypes(harness).filter((type) => type === "model_change")).toHaveLength(4);
	});

	it("returns undefined when there is nothing to cycle to", async () => {
		harness = await createRuntimeHarness();
		expect(await harness.session.cycleModel()).toBeUndefined();
	});
});

describe("thinking levels", () => {
	it("starts a new session at the default level and records it", async () => {
		harness = await createRuntimeHarness();
		expect(harness.session.thinkingLevel).toBe("medium");
		expect(harness.sessionManager.getEntries()[1]).toMatchObject({
			type: "thinking_level_change",
			thinkingLevel: "medium",
		});
	});

	it("clamps to what the model supports and records only real changes", async () => {
		harness = await createRuntimeHarness({ models: [{ id: "faux-1" }, { id: "gpt-5.2-faux" }] });
		harness.session.setThinkingLevel("xhigh");
		expect(harness.session.thinkingLevel).toBe("high");
		harness.session.setThinkingLevel("high");
		expect(entryTypes(harness).filter((type) => type === "thinking_level_change")).toHaveLength(2);
		expect(harness.settingsManager.getGlobalSettings().defaultThinkingLevel).toBe("high");

		await harness.session.setModel(harness.modelRegistry.find("faux", "gpt-5.2-faux")!);
		expect(harness.session.getAvailableThinkingLevels()).toEqual([
			"off",
			"minimal",
			"low",
			"medium",
			"high",
			"xhigh",
		]);
		harness.session.setThinkingLevel("xhigh");
		expect(harness.session.thinkingLevel).toBe("xhigh");
	});

	it("turns thinking off for a model without reasoning and restores the default when coming back", async () => {
		harness = await createRuntimeHarness({ models: [{ id: "faux-1" }, { id: "plain", reasoning: false }] });
		harness.session.setThinkingLevel("high");
		await harness.session.setModel(harness.modelRegistry.find("faux", "plain")!);
		expect(harness.session.thinkingLevel).toBe("off");
		expect(harness.session.cycleThinkingLevel()).toBeUndefined();
		harness.session.setThinkingLevel("high");
		expect(harness.session.thinkingLevel).toBe("off");
		// Off on a model without reasoning is not a preference worth saving.
		expect(harness.settingsManager.getGlobalSettings().defaultThinkingLevel).toBe("high");
		await harness.session.setModel(harness.modelRegistry.find("faux", "faux-1")!);
		expect(harness.session.thinkingLevel).toBe("high");
	});

	it("cycles through the levels, wrapping to off, and sends the level as reasoning", async () => {
		harness = await createRuntimeHarness();
		const seen = [harness.session.thinkingLevel];
		for (let i = 0; i < 5; i++) seen.push(harness.session.cycleThinkingLevel()!);
		expect(seen).toEqual(["medium", "high", "off", "minimal", "low", "medium"]);
		harness.faux.enqueue({ content: [{ type: "text", text: "ok" }] });
		await harness.session.prompt("hi");
		expect(harness.faux.requests[0]?.options?.reasoning).toBe("medium");
	});
});

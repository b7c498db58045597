// PLACEHOLDER: replaced by the cross-provider handoff implementation (spec ai §8).
import type { Message, Model } from "../types.js";

export function transformMessages(
	messages: Message[],
	_targetModel: Model,
	_normalizeToolCallId?: (id: string, model: Model, source: Message) => string,
): Message[] {
	return messages;
}

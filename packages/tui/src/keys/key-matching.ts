import { decodeKey } from "./key-decoder.js";
import { formatKeyId, type KeyId, type KeyPress, parseKeyId } from "./key-id.js";

const parsedIdCache = new Map<string, KeyPress | null>();

function parseIdCached(keyId: string): KeyPress | undefined {
	let parsed = parsedIdCache.get(keyId);
	if (parsed === undefined) {
		parsed = parseKeyId(keyId) ?? null;
		parsedIdCache.set(keyId, parsed);
	}
	return parsed ?? undefined;
}

function samePress(a: KeyPress, b: KeyPress): boolean {
	return a.key === b.key && a.ctrl === b.ctrl && a.alt === b.alt && a.shift === b.shift && a.super === b.super;
}

/**
 * Whether terminal input `data` is the key `keyId` ("ctrl+c", "shift+enter", "alt+left", ...). Understands
 * legacy sequences, Kitty CSI-u, xterm modifyOtherKeys and ESC-prefixed Alt. Key releases never match.
 */
export function matchesKey(data: string, keyId: KeyId | string): boolean {
	const wanted = parseIdCached(keyId);
	if (!wanted) return false;
	const decoded = decodeKey(data);
	if (!decoded || decoded.eventType === "release") return false;
	return decoded.presses.some((press) => samePress(press, wanted));
}

/** The key id for a key sequence, or undefined when `data` is not a single key. */
export function parseKey(data: string): KeyId | undefined {
	const decoded = decodeKey(data);
	const primary = decoded?.presses[0];
	return primary ? formatKeyId(primary) : undefined;
}

/** The printable text a Kitty key sequence stands for (e.g. "\x1b[97:65;2u" → "A"), if any. */
export function decodeKittyPrintable(data: string): string | undefined {
	if (!data.startsWith("\x1b[") || !data.endsWith("u")) return undefined;
	const decoded = decodeKey(data);
	if (!decoded || decoded.eventType === "release") return undefined;
	return decoded.text;
}

const EVENT_SUFFIX = /:([23])[u~ABCDHFPQS]$/;

function eventTypeCode(data: string): string | undefined {
	if (data.includes("\x1b[200~")) return undefined;
	return EVENT_SUFFIX.exec(data)?.[1];
}

/** Whether `data` is a Kitty key-release event. */
export function isKeyRelease(data: string): boolean {
	return eventTypeCode(data) === "3";
}

/** Whether `data` is a Kitty key-repeat event. */
export function isKeyRepeat(data: string): boolean {
	return eventTypeCode(data) === "2";
}

import { graphemeWidth, type TUI, VirtualTerminal } from "@agent/tui";
import xtermHeadless from "@xterm/headless";

const { Terminal: XtermTerminal } = xtermHeadless;

const ZWJ = 0x200d;
const VS15 = 0xfe0e;
const VS16 = 0xfe0f;
const AFTER_ZWJ = 1;
const AFTER_REGIONAL_INDICATOR = 2;

function propertyValue(kind: number, width: number, shouldJoin: boolean): number {
	return ((kind & 0xffffff) << 3) | ((width & 3) << 1) | (shouldJoin ? 1 : 0);
}

const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isPictographic = (cp: number) => /\p{Extended_Pictographic}/u.test(String.fromCodePoint(cp));

/**
 * xterm.js measures characters one code point at a time with Unicode 6 tables (😀 = 1 column, a ZWJ
 * family = 3 emoji). Modern terminals (kitty, WezTerm, Ghostty, iTerm2) draw grapheme clusters with
 * current widths. This provider makes the emulator join clusters the way those terminals do, so tests
 * check layout against the terminals users actually run.
 */
const graphemeClusterUnicode = {
	version: "grapheme-clusters",
	wcwidth(codePoint: number): 0 | 1 | 2 {
		return Math.min(2, graphemeWidth(String.fromCodePoint(codePoint))) as 0 | 1 | 2;
	},
	charProperties(codePoint: number, preceding: number): number {
		const width = graphemeClusterUnicode.wcwidth(codePoint);
		if (preceding === 0)
			return propertyValue(isRegionalIndicator(codePoint) ? AFTER_REGIONAL_INDICATOR : 0, width, false);
		const previousWidth = (preceding >> 1) & 3;
		const previousKind = preceding >> 3;
		if (codePoint === ZWJ) return propertyValue(AFTER_ZWJ, previousWidth, true);
		if (previousKind === AFTER_ZWJ && isPictographic(codePoint))
			return propertyValue(0, Math.max(2, previousWidth), true);
		if (codePoint === VS16 || isSkinTone(codePoint)) return propertyValue(0, 2, true);
		if (codePoint === VS15) return propertyValue(0, previousWidth, true);
		if (previousKind === AFTER_REGIONAL_INDICATOR && isRegionalIndicator(codePoint)) return propertyValue(0, 2, true);
		if (width === 0 && previousWidth > 0) return propertyValue(0, previousWidth, true);
		return propertyValue(isRegionalIndicator(codePoint) ? AFTER_REGIONAL_INDICATOR : 0, width, false);
	},
};

export type HeadlessTerminal = VirtualTerminal<InstanceType<typeof XtermTerminal>>;

/** A VirtualTerminal over @xterm/headless, measuring text by grapheme cluster like modern terminals. */
export function createHeadlessTerminal(columns = 80, rows = 24, scrollback = 10_000): HeadlessTerminal {
	const emulator = new XtermTerminal({ cols: columns, rows, scrollback, allowProposedApi: true });
	emulator.unicode.register(graphemeClusterUnicode);
	emulator.unicode.activeVersion = graphemeClusterUnicode.version;
	return new VirtualTerminal(emulator);
}

/** Renders pending changes now and waits until the emulator has parsed the output. */
export async function renderAndSettle(tui: TUI, terminal: HeadlessTerminal): Promise<void> {
	tui.renderNow();
	await terminal.flush();
}

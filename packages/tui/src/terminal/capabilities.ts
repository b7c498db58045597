/** Inline image protocols a terminal may support. */
export type ImageProtocol = "kitty" | "iterm2";

/**
 * Which inline image protocol the terminal speaks, judged from its environment: Kitty graphics for
 * Kitty, Ghostty and WezTerm; iTerm2 inline images for iTerm2. Inside tmux images would need
 * passthrough configuration, so none is assumed there and images fall back to text.
 */
export function detectImageProtocol(env: Record<string, string | undefined> = process.env): ImageProtocol | undefined {
	if (env.TMUX) return undefined;
	const program = env.TERM_PROGRAM ?? "";
	if (env.KITTY_WINDOW_ID || env.TERM === "xterm-kitty") return "kitty";
	if (env.GHOSTTY_RESOURCES_DIR || program === "ghostty") return "kitty";
	if (env.WEZTERM_PANE || program === "WezTerm") return "kitty";
	if (env.ITERM_SESSION_ID || program === "iTerm.app") return "iterm2";
	return undefined;
}

/** What the terminal can show beyond plain styled text. */
export interface TerminalCapabilities {
	/** The inline image protocol, or null when images fall back to text. */
	images: ImageProtocol | null;
	/** 24-bit colour (SGR 38;2 / 48;2). */
	trueColor: boolean;
	/** OSC 8 hyperlinks. */
	hyperlinks: boolean;
}

type Env = Record<string, string | undefined>;

/** Terminals known to render 24-bit colour and OSC 8 links even without COLORTERM set. */
function isModernTerminal(env: Env): boolean {
	const program = env.TERM_PROGRAM ?? "";
	return (
		Boolean(env.KITTY_WINDOW_ID || env.GHOSTTY_RESOURCES_DIR || env.WEZTERM_PANE || env.ITERM_SESSION_ID) ||
		env.TERM === "xterm-kitty" ||
		["ghostty", "WezTerm", "iTerm.app", "vscode"].includes(program) ||
		Boolean(env.WT_SESSION)
	);
}

/**
 * The terminal's capabilities, judged from its environment (no query is sent): images as `detectImageProtocol`
 * decides, true colour from COLORTERM (`truecolor`/`24bit`) or a known terminal, hyperlinks from a known terminal.
 */
export function detectCapabilities(env: Env = process.env): TerminalCapabilities {
	const colorterm = (env.COLORTERM ?? "").toLowerCase();
	const modern = isModernTerminal(env);
	return {
		images: detectImageProtocol(env) ?? null,
		trueColor: colorterm === "truecolor" || colorterm === "24bit" || modern,
		hyperlinks: modern && env.TERM !== "dumb",
	};
}

let cachedCapabilities: TerminalCapabilities | undefined;

/** `detectCapabilities()` of this process, detected once and then cached (`resetCapabilitiesCache` forgets it). */
export function getCapabilities(): TerminalCapabilities {
	cachedCapabilities ??= detectCapabilities();
	return cachedCapabilities;
}

/** Makes the next `getCapabilities()` detect again, e.g. after the environment changed. */
export function resetCapabilitiesCache(): void {
	cachedCapabilities = undefined;
}

/** Size of one terminal cell in pixels, used to give images the right number of rows. */
export interface CellDimensions {
	widthPx: number;
	heightPx: number;
}

let cellDimensions: CellDimensions = { widthPx: 9, heightPx: 18 };

export function getCellDimensions(): CellDimensions {
	return cellDimensions;
}

export function setCellDimensions(dimensions: CellDimensions): void {
	cellDimensions = dimensions;
}

/** Reply to the cell-size query CSI 16 t: CSI 6 ; height ; width t */
export const CELL_SIZE_REPLY = /\x1b\[6;(\d+);(\d+)t/;

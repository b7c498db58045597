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

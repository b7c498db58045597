// How many colours the terminal shows, and the nearest colour at a lower depth. The conventions are those of the
// `supports-color` package that chalk uses (NO_COLOR, FORCE_COLOR levels, COLORTERM, TERM patterns), so a terminal
// gets the depth it gets from other tools; we keep our own code rather than chalk because the detection has to
// take the environment as an argument (the SDK and the tests pass one), the 256-colour match here is the nearest
// colour rather than chalk's rounding, and importing chalk costs start-up time (AGENTS.md, "Decisions").

/** The colour depth of a terminal: 24-bit, the xterm 256-colour palette, the 16 ANSI colours, or none. */
export type ColorMode = "truecolor" | "256" | "16" | "none";

const FORCE_LEVELS: Record<string, ColorMode> = {
	"": "16",
	"1": "16",
	true: "16",
	"2": "256",
	"3": "truecolor",
	"0": "none",
	false: "none",
};

const TRUECOLOR_TERMS = new Set(["xterm-kitty", "xterm-ghostty", "wezterm", "alacritty", "foot", "contour"]);
const TRUECOLOR_PROGRAMS = new Set(["iTerm.app", "WezTerm", "ghostty"]);

/**
 * The colour depth to use: NO_COLOR (any non-empty value) turns colour off; FORCE_COLOR=0..3 sets the depth;
 * otherwise TERM=dumb has none, COLORTERM=truecolor, known true-colour terminals and `*-direct` TERMs have true
 * colour, `*-256color` TERMs the 256 palette; any other (xterm, screen, linux, unknown or none) the 16 ANSI colours,
 * which practically every terminal that shows colour has.
 */
export function detectColorMode(
	env: Record<string, string | undefined> = process.env,
	platform: NodeJS.Platform = process.platform,
): ColorMode {
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return "none";
	if (env.FORCE_COLOR !== undefined) {
		const forced = FORCE_LEVELS[env.FORCE_COLOR.toLowerCase()];
		if (forced) return forced;
	}
	const term = env.TERM ?? "";
	if (term === "dumb") return "none";
	const colorterm = env.COLORTERM?.toLowerCase() ?? "";
	if (colorterm === "truecolor" || colorterm === "24bit") return "truecolor";
	if (TRUECOLOR_TERMS.has(term) || /-direct$|truecolor/i.test(term)) return "truecolor";
	if (env.TERM_PROGRAM !== undefined && TRUECOLOR_PROGRAMS.has(env.TERM_PROGRAM)) return "truecolor";
	if (platform === "win32") return env.WT_SESSION !== undefined ? "truecolor" : "256";
	if (/-256(colou?r)?$/i.test(term) || env.TERM_PROGRAM === "Apple_Terminal") return "256";
	return "16";
}

const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

function nearestCubeIndex(value: number): number {
	let best = 0;
	for (let i = 1; i < CUBE_LEVELS.length; i++) {
		if (Math.abs(CUBE_LEVELS[i] - value) < Math.abs(CUBE_LEVELS[best] - value)) best = i;
	}
	return best;
}

/** The xterm-256 palette entry closest to an RGB colour (colour cube or grey ramp). */
export function rgbTo256(r: number, g: number, b: number): number {
	const ri = nearestCubeIndex(r);
	const gi = nearestCubeIndex(g);
	const bi = nearestCubeIndex(b);
	const cube = 16 + 36 * ri + 6 * gi + bi;
	const cubeDistance = (CUBE_LEVELS[ri] - r) ** 2 + (CUBE_LEVELS[gi] - g) ** 2 + (CUBE_LEVELS[bi] - b) ** 2;
	const grey = Math.round((r + g + b) / 3);
	const greyIndex = Math.max(0, Math.min(23, Math.round((grey - 8) / 10)));
	const greyLevel = 8 + greyIndex * 10;
	const greyDistance = (greyLevel - r) ** 2 + (greyLevel - g) ** 2 + (greyLevel - b) ** 2;
	return greyDistance < cubeDistance ? 232 + greyIndex : cube;
}

/** The 16 ANSI colours as xterm shows them by default. */
const ANSI_16: readonly (readonly [number, number, number])[] = [
	[0, 0, 0],
	[205, 0, 0],
	[0, 205, 0],
	[205, 205, 0],
	[0, 0, 238],
	[205, 0, 205],
	[0, 205, 205],
	[229, 229, 229],
	[127, 127, 127],
	[255, 0, 0],
	[0, 255, 0],
	[255, 255, 0],
	[92, 92, 255],
	[255, 0, 255],
	[0, 255, 255],
	[255, 255, 255],
];

/** The RGB value of an entry of the xterm 256-colour palette. */
export function paletteToRgb(index: number): [number, number, number] {
	if (index < 16) return [...(ANSI_16[index] ?? ANSI_16[7])];
	if (index >= 232) {
		const level = 8 + (index - 232) * 10;
		return [level, level, level];
	}
	const cube = index - 16;
	return [CUBE_LEVELS[Math.floor(cube / 36)], CUBE_LEVELS[Math.floor(cube / 6) % 6], CUBE_LEVELS[cube % 6]];
}

/** Greys among the ANSI colours: black, bright black, white, bright white. */
const ANSI_GREYS: readonly (readonly [index: number, level: number])[] = [
	[0, 0],
	[8, 127],
	[7, 229],
	[15, 255],
];

/**
 * The ANSI colour (0–15) for an RGB colour. Not the nearest by distance: that turns muted theme colours (a soft
 * red like #cc6666) into grey. A colour keeps its hue instead: a channel is on when it is near the strongest one,
 * and the bright variant is used for strong colours. Greys (channels nearly equal) go to the nearest ANSI grey.
 */
export function rgbTo16(r: number, g: number, b: number): number {
	const max = Math.max(r, g, b);
	if (max - Math.min(r, g, b) < 32) {
		let best = ANSI_GREYS[0];
		for (const grey of ANSI_GREYS) if (Math.abs(grey[1] - max) < Math.abs(best[1] - max)) best = grey;
		return best[0];
	}
	const threshold = max * 0.6;
	const hue = (r >= threshold ? 1 : 0) | (g >= threshold ? 2 : 0) | (b >= threshold ? 4 : 0);
	return max > 240 ? hue + 8 : hue;
}

/** The SGR parameters that select ANSI colour `index` (0–15) as foreground or background. */
export function ansi16Code(index: number, background: boolean): number {
	const base = index < 8 ? 30 + index : 90 + index - 8;
	return background ? base + 10 : base;
}

// Mouse reports in the SGR encoding (DEC private mode 1006), which the TUI turns on in full-screen mode:
// `ESC [ < button ; column ; row M` for a press (or wheel notch), `… m` for a release. Columns and rows are
// 1-based on the wire and 0-based here.

/** Turns on button and wheel reports (1000) in the SGR encoding (1006). */
export const MOUSE_REPORTING_ON = "\x1b[?1000h\x1b[?1006h";
export const MOUSE_REPORTING_OFF = "\x1b[?1006l\x1b[?1000l";

export interface MouseEvent {
	kind: "press" | "release" | "wheelUp" | "wheelDown";
	/** 0 left, 1 middle, 2 right (presses and releases). */
	button: number;
	/** 0-based cell of the pointer. */
	column: number;
	row: number;
	shift: boolean;
	alt: boolean;
	ctrl: boolean;
}

const SGR_MOUSE = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/;

/** The mouse event `data` reports, or undefined when it is not an SGR mouse report. */
export function parseMouseEvent(data: string): MouseEvent | undefined {
	const match = SGR_MOUSE.exec(data);
	if (!match) return undefined;
	const code = Number(match[1]);
	const modifiers = { shift: (code & 4) !== 0, alt: (code & 8) !== 0, ctrl: (code & 16) !== 0 };
	const position = { column: Number(match[2]) - 1, row: Number(match[3]) - 1 };
	// Bit 6 marks the wheel (64 up, 65 down); bit 5 a motion report, which mode 1000 does not send.
	if ((code & 64) !== 0) {
		return { kind: (code & 1) === 0 ? "wheelUp" : "wheelDown", button: -1, ...position, ...modifiers };
	}
	return { kind: match[4] === "M" ? "press" : "release", button: code & 3, ...position, ...modifiers };
}

/** Whether `data` is a mouse report of any kind (also the legacy X10 form `ESC [ M b x y`). */
export function isMouseEvent(data: string): boolean {
	return SGR_MOUSE.test(data) || (data.startsWith("\x1b[M") && data.length === 6);
}

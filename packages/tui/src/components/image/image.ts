import { CachedComponent } from "../../component.js";
import { detectImageProtocol, getCellDimensions, type ImageProtocol } from "../../terminal/capabilities.js";
import { truncateToWidth } from "../../text/truncate.js";
import type { ImageTheme } from "../../theme/themes.js";
import { type ImageDimensions, readImageDimensions } from "./image-dimensions.js";

export interface ImageOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	filename?: string;
	/** Which protocol to draw with; detected from the environment by default (undefined = text fallback). */
	protocol?: ImageProtocol | null;
}

const DEFAULT_MAX_WIDTH_CELLS = 60;
const KITTY_CHUNK = 4096;
let nextImageId = 1;

function kittySequence(base64: string, id: number, columns: number, rows: number): string {
	// q=2 silences replies, C=1 keeps the cursor still, i/p make a redraw replace the earlier placement.
	const control = `a=T,f=100,q=2,C=1,i=${id},p=1,c=${columns},r=${rows}`;
	if (base64.length <= KITTY_CHUNK) return `\x1b_G${control};${base64}\x1b\\`;
	let out = "";
	for (let offset = 0; offset < base64.length; offset += KITTY_CHUNK) {
		const chunk = base64.slice(offset, offset + KITTY_CHUNK);
		const more = offset + KITTY_CHUNK < base64.length ? 1 : 0;
		out += offset === 0 ? `\x1b_G${control},m=${more};${chunk}\x1b\\` : `\x1b_Gm=${more};${chunk}\x1b\\`;
	}
	return out;
}

function iterm2Sequence(base64: string, columns: number, rows: number, filename: string | undefined): string {
	const name = filename ? `name=${Buffer.from(filename).toString("base64")};` : "";
	const size = Math.floor((base64.length * 3) / 4);
	return `\x1b]1337;File=${name}size=${size};width=${columns};height=${rows};preserveAspectRatio=1;inline=1:${base64}\x07`;
}

/**
 * An inline image (Kitty graphics or iTerm2 protocol), or a one-line text placeholder on terminals
 * without either. The image occupies as many rows as its aspect ratio needs: empty lines, then a
 * last line that saves the cursor, moves up to the first row, draws the image and restores the cursor.
 */
export class Image extends CachedComponent {
	private readonly dimensions: ImageDimensions | undefined;
	private readonly protocol: ImageProtocol | undefined;
	private readonly id = nextImageId++;

	constructor(
		private readonly base64: string,
		private readonly mimeType: string,
		private readonly theme: ImageTheme,
		private readonly options: ImageOptions = {},
	) {
		super();
		this.dimensions = readImageDimensions(Buffer.from(base64.slice(0, 65_536), "base64"));
		this.protocol = options.protocol === undefined ? detectImageProtocol() : (options.protocol ?? undefined);
	}

	getDimensions(): ImageDimensions | undefined {
		return this.dimensions;
	}

	protected renderLines(width: number): string[] {
		if (!this.protocol || !this.dimensions || this.dimensions.widthPx === 0) return [this.fallbackLine(width)];
		const cell = getCellDimensions();
		const maxColumns = Math.max(1, Math.min(width, this.options.maxWidthCells ?? DEFAULT_MAX_WIDTH_CELLS));
		const naturalColumns = Math.ceil(this.dimensions.widthPx / cell.widthPx);
		let columns = Math.min(maxColumns, naturalColumns);
		let rows = Math.max(
			1,
			Math.ceil((columns * cell.widthPx * this.dimensions.heightPx) / this.dimensions.widthPx / cell.heightPx),
		);
		const maxRows = this.options.maxHeightCells;
		if (maxRows !== undefined && rows > maxRows) {
			rows = maxRows;
			columns = Math.max(
				1,
				Math.floor((rows * cell.heightPx * this.dimensions.widthPx) / this.dimensions.heightPx / cell.widthPx),
			);
		}
		const sequence =
			this.protocol === "kitty"
				? kittySequence(this.base64, this.id, columns, rows)
				: iterm2Sequence(this.base64, columns, rows, this.options.filename);
		const moveUp = rows > 1 ? `\x1b[${rows - 1}A` : "";
		const lines = Array.from({ length: rows - 1 }, () => "");
		lines.push(`\x1b7${moveUp}${sequence}\x1b8`);
		return lines;
	}

	private fallbackLine(width: number): string {
		const size = this.dimensions ? ` ${this.dimensions.widthPx}x${this.dimensions.heightPx}` : "";
		const name = this.options.filename ?? this.mimeType;
		return truncateToWidth(this.theme.fallbackColor(`[Image: ${name}${size}]`), width);
	}
}

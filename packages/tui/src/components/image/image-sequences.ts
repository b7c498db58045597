// The escape sequences of the two inline image protocols: Kitty graphics (APC `ESC _ G … ESC \`) and iTerm2
// inline images (OSC 1337 `File=`).

const KITTY_CHUNK = 4096;
const MAX_KITTY_IMAGE_ID = 0xffff_ffff;

/**
 * A random Kitty image id (1 … 2³²−1). Random rather than counted, so images drawn by separate copies of this
 * module (the app and an extension's bundle) do not replace each other.
 */
export function allocateImageId(): number {
	return 1 + Math.floor(Math.random() * (MAX_KITTY_IMAGE_ID - 1));
}

/**
 * Transmits and displays base64 PNG data with the Kitty graphics protocol, sent in 4096-byte chunks. `columns` and
 * `rows` scale it to that many cells; with `imageId` (and placement 1) a later draw replaces this one. Replies are
 * silenced (q=2) and the cursor does not move (C=1).
 */
export function encodeKitty(
	base64Data: string,
	options: { columns?: number; rows?: number; imageId?: number } = {},
): string {
	let control = "a=T,f=100,q=2,C=1";
	if (options.imageId !== undefined) control += `,i=${options.imageId},p=1`;
	if (options.columns !== undefined) control += `,c=${options.columns}`;
	if (options.rows !== undefined) control += `,r=${options.rows}`;
	if (base64Data.length <= KITTY_CHUNK) return `\x1b_G${control};${base64Data}\x1b\\`;
	let out = "";
	for (let offset = 0; offset < base64Data.length; offset += KITTY_CHUNK) {
		const chunk = base64Data.slice(offset, offset + KITTY_CHUNK);
		const more = offset + KITTY_CHUNK < base64Data.length ? 1 : 0;
		out += offset === 0 ? `\x1b_G${control},m=${more};${chunk}\x1b\\` : `\x1b_Gm=${more};${chunk}\x1b\\`;
	}
	return out;
}

/** Deletes the Kitty image with this id and frees its data (d=I). */
export function deleteKittyImage(imageId: number): string {
	return `\x1b_Ga=d,d=I,i=${imageId},q=2\x1b\\`;
}

/** Deletes every visible Kitty image and frees their data (d=A). */
export function deleteAllKittyImages(): string {
	return "\x1b_Ga=d,d=A,q=2\x1b\\";
}

/**
 * An iTerm2 inline image (OSC 1337 File=). `width`/`height` are cells as numbers, or iTerm2's own units as strings
 * (`"100px"`, `"50%"`, `"auto"`); `name` is sent base64-encoded; the aspect ratio is kept and the image shown inline
 * unless set to false.
 */
export function encodeITerm2(
	base64Data: string,
	options: {
		width?: number | string;
		height?: number | string;
		name?: string;
		preserveAspectRatio?: boolean;
		inline?: boolean;
	} = {},
): string {
	const params: string[] = [];
	if (options.name !== undefined) params.push(`name=${Buffer.from(options.name).toString("base64")}`);
	params.push(`size=${Math.floor((base64Data.replace(/=+$/, "").length * 3) / 4)}`);
	if (options.width !== undefined) params.push(`width=${options.width}`);
	if (options.height !== undefined) params.push(`height=${options.height}`);
	params.push(`preserveAspectRatio=${options.preserveAspectRatio === false ? 0 : 1}`);
	params.push(`inline=${options.inline === false ? 0 : 1}`);
	return `\x1b]1337;File=${params.join(";")}:${base64Data}\x07`;
}

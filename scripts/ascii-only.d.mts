/** See ascii-only.mjs. */
export function toAscii(text: string, name: string): string;

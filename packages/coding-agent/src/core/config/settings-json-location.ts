// Node's JSON.parse reports a position for some syntax errors only ("Unexpected token '}', "…" is not valid
// JSON" has none, and quotes the whole text). This scanner finds the offset of the first syntax error so every
// message can name a line and column.

class JsonSyntaxError {
	constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function scanJson(text: string): void {
	let pos = 0;
	const fail = (): never => {
		throw new JsonSyntaxError(pos);
	};
	const skipWhitespace = () => {
		while (pos < text.length && " \t\n\r".includes(text[pos]!)) pos++;
	};
	const expect = (char: string) => {
		if (text[pos] !== char) fail();
		pos++;
	};
	const scanString = () => {
		expect('"');
		while (true) {
			const char = text[pos];
			if (char === undefined) fail();
			if (char === '"') {
				pos++;
				return;
			}
			if (char === "\\") {
				const escaped = text[pos + 1];
				if (escaped === "u") {
					if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
						pos += 2;
						fail();
					}
					pos += 6;
				} else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
					pos += 2;
				} else {
					pos++;
					fail();
				}
			}
			if (char.charCodeAt(0) < 0x20) fail();
			pos++;
		}
	};
	const scanLiteral = (literal: string) => {
		for (const char of literal) {
			if (text[pos] !== char) fail();
			pos++;
		}
	};
	const scanValue = (): void => {
		skipWhitespace();
		const char = text[pos];
		if (char === "{") {
			pos++;
			skipWhitespace();
			if (text[pos] === "}") {
				pos++;
				return;
			}
			while (true) {
				skipWhitespace();
				scanString();
				skipWhitespace();
				expect(":");
				scanValue();
				skipWhitespace();
				if (text[pos] === ",") {
					pos++;
					continue;
				}
				expect("}");
				return;
			}
		}
		if (char === "[") {
			pos++;
			skipWhitespace();
			if (text[pos] === "]") {
				pos++;
				return;
			}
			while (true) {
				scanValue();
				skipWhitespace();
				if (text[pos] === ",") {
					pos++;
					continue;
				}
				expect("]");
				return;
			}
		}
		if (char === '"') scanString();
		else if (char === "t") scanLiteral("true");
		else if (char === "f") scanLiteral("false");
		else if (char === "n") scanLiteral("null");
		else {
			NUMBER.lastIndex = pos;
			if (char === undefined || !NUMBER.test(text)) fail();
			pos = NUMBER.lastIndex;
		}
	};
	scanValue();
	skipWhitespace();
	if (pos < text.length) fail();
}

/** Offset of the first JSON syntax error in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxErrorOffset(text: string): number | undefined {
	try {
		scanJson(text);
		return undefined;
	} catch (error) {
		if (error instanceof JsonSyntaxError) return error.offset;
		return text.length; // nesting too deep for the scanner's recursion
	}
}

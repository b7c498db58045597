// LeanType builds what TypeBox's Type builds: the same keys in the same order (the JSON a provider receives) and
// the same TypeBox symbols (what TypeBox's own guards and checks read).
import { type TSchema, Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { LeanType, StringEnum } from "../src/index.js";

/** Every own key, symbols included, recursively: what toEqual alone would not compare (order, symbols). */
function shape(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(shape);
	if (value === null || typeof value !== "object") return value;
	return Reflect.ownKeys(value).map((key) => [String(key), shape((value as Record<string | symbol, unknown>)[key])]);
}

function expectSame(lean: TSchema, typebox: TSchema): void {
	expect(shape(lean)).toEqual(shape(typebox));
	expect(JSON.stringify(lean)).toBe(JSON.stringify(typebox));
}

describe("LeanType", () => {
	it("builds scalars as Type does, with and without options", () => {
		expectSame(LeanType.String(), Type.String());
		expectSame(LeanType.String({ description: "d", minLength: 1 }), Type.String({ description: "d", minLength: 1 }));
		expectSame(LeanType.Number(), Type.Number());
		expectSame(LeanType.Number({ description: "n", default: 3 }), Type.Number({ description: "n", default: 3 }));
		expectSame(LeanType.Boolean({ description: "b" }), Type.Boolean({ description: "b" }));
		expectSame(LeanType.Unknown(), Type.Unknown());
		expectSame(LeanType.Unknown({ description: "u" }), Type.Unknown({ description: "u" }));
	});

	it("builds objects with required keys in order, optional keys left out of `required`", () => {
		expectSame(
			LeanType.Object({
				b: LeanType.String(),
				a: LeanType.Optional(LeanType.Number({ description: "x" })),
				c: LeanType.Boolean(),
			}),
			Type.Object({ b: Type.String(), a: Type.Optional(Type.Number({ description: "x" })), c: Type.Boolean() }),
		);
		expectSame(
			LeanType.Object({ only: LeanType.Optional(LeanType.String()) }, { description: "all optional" }),
			Type.Object({ only: Type.Optional(Type.String()) }, { description: "all optional" }),
		);
		expectSame(LeanType.Object({}), Type.Object({}));
		expectSame(
			LeanType.Object({ inner: LeanType.Object({ x: LeanType.Number() }) }, { additionalProperties: false }),
			Type.Object({ inner: Type.Object({ x: Type.Number() }) }, { additionalProperties: false }),
		);
	});

	it("marks optional as Type does, also twice", () => {
		expectSame(LeanType.Optional(LeanType.String()), Type.Optional(Type.String()));
		expectSame(LeanType.Optional(LeanType.Optional(LeanType.Number())), Type.Optional(Type.Optional(Type.Number())));
	});

	it("builds string-keyed records, with the key's own pattern when it has one", () => {
		expectSame(
			LeanType.Record(LeanType.String(), LeanType.Unknown(), { description: "r" }),
			Type.Record(Type.String(), Type.Unknown(), { description: "r" }),
		);
		expectSame(LeanType.Record(LeanType.String(), LeanType.Number()), Type.Record(Type.String(), Type.Number()));
		expectSame(
			LeanType.Record(LeanType.String({ pattern: "^[a-z]+$" }), LeanType.Boolean()),
			Type.Record(Type.String({ pattern: "^[a-z]+$" }), Type.Boolean()),
		);
	});

	it("builds unsafe schemas, and StringEnum on top of them, as Type.Unsafe does", () => {
		expectSame(
			LeanType.Unsafe({ type: "string", enum: ["a", "b"] }),
			Type.Unsafe({ type: "string", enum: ["a", "b"] }),
		);
		expectSame(LeanType.Unsafe(), Type.Unsafe());
		const kind = Symbol.for("TypeBox.Kind");
		expectSame(LeanType.Unsafe({ [kind]: "Custom", type: "x" }), Type.Unsafe({ [kind]: "Custom", type: "x" }));
		expectSame(
			StringEnum(["low", "high"], { description: "level", default: "low" }),
			Type.Unsafe({ type: "string", enum: ["low", "high"], description: "level", default: "low" }),
		);
	});
});

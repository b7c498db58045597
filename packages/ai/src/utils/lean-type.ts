/**
 * The part of TypeBox's `Type` the built-in tools' parameter schemas use, building the very same schemas (the
 * same keys in the same order, the same `TypeBox.Kind` and `TypeBox.Optional` symbols) without loading TypeBox:
 * its 135 kB cost about 10 ms of every start, and only extensions and MCP tools need the whole builder. It
 * builds as TypeBox's default instance mode does (no cloning, no freezing). test/lean-type.test.ts compares
 * every builder with TypeBox's on the same arguments.
 */
import type {
	Kind as KindSymbol,
	NumberOptions,
	ObjectOptions,
	OptionalKind as OptionalKindSymbol,
	SchemaOptions,
	StringOptions,
	TBoolean,
	TNumber,
	TObject,
	TOptional,
	TProperties,
	TRecord,
	TSchema,
	TString,
	TUnknown,
	TUnsafe,
	UnsafeOptions,
} from "@sinclair/typebox";

// Registered symbols: the ones TypeBox itself uses, so its guards and checks recognise these schemas.
const Kind: typeof KindSymbol = Symbol.for("TypeBox.Kind") as typeof KindSymbol;
const OptionalKind: typeof OptionalKindSymbol = Symbol.for("TypeBox.Optional") as typeof OptionalKindSymbol;

/** TypeBox's `CreateType`: the options first, the schema's own keys over them. */
function create<T>(schema: Record<string | symbol, unknown>, options: object | undefined): T {
	return (options !== undefined ? { ...options, ...schema } : schema) as T;
}

const isOptional = (schema: TSchema): boolean => (schema as Partial<TOptional<TSchema>>)[OptionalKind] === "Optional";

export const LeanType = {
	Object<T extends TProperties>(properties: T, options?: ObjectOptions): TObject<T> {
		const required = Object.keys(properties).filter((key) => !isOptional(properties[key] as TSchema));
		const schema =
			required.length > 0
				? { [Kind]: "Object", type: "object", required, properties }
				: { [Kind]: "Object", type: "object", properties };
		return create(schema, options);
	},
	String(options?: StringOptions): TString {
		return create({ [Kind]: "String", type: "string" }, options);
	},
	Number(options?: NumberOptions): TNumber {
		return create({ [Kind]: "Number", type: "number" }, options);
	},
	Boolean(options?: SchemaOptions): TBoolean {
		return create({ [Kind]: "Boolean", type: "boolean" }, options);
	},
	Optional<T extends TSchema>(schema: T): TOptional<T> {
		return { ...schema, [OptionalKind]: "Optional" as const };
	},
	Unknown(options?: SchemaOptions): TUnknown {
		return create({ [Kind]: "Unknown" }, options);
	},
	/** String keys only (TypeBox's `^(.*)$` pattern, or the key schema's own `pattern`). */
	Record<T extends TSchema>(key: TString, value: T, options: ObjectOptions = {}): TRecord<TString, T> {
		const pattern = key.pattern ?? "^(.*)$";
		return create({ [Kind]: "Record", type: "object", patternProperties: { [pattern]: value } }, options);
	},
	Unsafe<T>(options: UnsafeOptions = {}): TUnsafe<T> {
		return create({ [Kind]: options[Kind] ?? "Unsafe" }, options);
	},
};

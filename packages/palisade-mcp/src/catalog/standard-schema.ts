/**
 * A tool schema may be a Standard Schema (https://standardschema.dev) that can produce JSON
 * Schema: zod 4, ArkType, or valibot wrapped by `toStandardJsonSchema`. It is converted here,
 * once, at construction, to JSON Schema 2020-12; from then on only that JSON Schema exists: it is
 * what `tools/list` advertises and what Ajv enforces. The library's own `validate` is never
 * called, so no request is ever checked against anything but the advertised schema.
 *
 * The converters drop some things silently (a zod `.refine()`, an ArkType `.narrow()`) and turn
 * others into something else (a `.transform()` leaves its input side, a `.default()` becomes an
 * optional property). Either way the typed handler would be promised more than the enforced
 * schema gives it, so each is refused here, naming the tool and the reason:
 * - generic, for every library: the input and the output JSON Schema must both convert (a
 *   transform has no output form), and neither may hold a `default`, which the library would
 *   fill in and Palisade never does;
 * - per library, in `standard-schema-vendors.ts`: what its converter drops without a trace.
 *
 * The interface is declared here, in part, as the specification asks: no dependency on it.
 */
import { PalisadeError } from '../errors.js';
import { forEachSubschema, formatPointer } from '../wire/schema-walk.js';
import { copySchemaData } from './schema-bounds.js';
import { field, vendorRules } from './standard-schema-vendors.js';

/** The subset of the Standard JSON Schema interface (v1) that Palisade reads. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardJSONSchemaV1.Props<Input, Output>;
}

export declare namespace StandardJSONSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    /** Present in types only: carries the library's inferred input and output types. */
    readonly types?: Types<Input, Output> | undefined;
    readonly jsonSchema: Converter;
  }
  interface Converter {
    readonly input: (options: Options) => Record<string, unknown>;
    readonly output: (options: Options) => Record<string, unknown>;
  }
  interface Options {
    readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string);
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** What a value must look like to pass the schema: the type the enforced JSON Schema admits. */
  type InferInput<Schema extends StandardJSONSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
}

function notConvertible(where: string, reason: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE', `${where}: ${reason}`);
}

/** Whether `value` claims to be a Standard Schema; arktype's types are functions. */
export function isStandardSchema(value: unknown): value is { readonly '~standard': unknown } {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}

/** The one converter call, its throw turned into a refusal carrying the library's own reason. */
function convert(
  converter: (options: StandardJSONSchemaV1.Options) => unknown,
  libraryOptions: Record<string, unknown>,
  where: string,
  side: string,
): Readonly<Record<string, unknown>> {
  let converted: unknown;
  try {
    converted = converter({ target: 'draft-2020-12', libraryOptions });
  } catch (error) {
    if (error instanceof PalisadeError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw notConvertible(where, `has no JSON Schema form (${side} side): ${reason}`);
  }
  // zod hangs its own `~standard` on the result as a hidden property; a shallow copy of the
  // enumerable keys leaves it behind, and the rest must then pass as plain JSON data.
  const data =
    typeof converted === 'object' && converted !== null && !Array.isArray(converted)
      ? { ...converted }
      : converted;
  return copySchemaData(data, where);
}

/** A `default` is the library's promise to fill a value in; Palisade passes arguments on untouched. */
function refuseDefaults(json: Readonly<Record<string, unknown>>, where: string): void {
  forEachSubschema(json, ({ schema, pointer }) => {
    if ('default' in schema) {
      throw notConvertible(
        where,
        `declares a default at ${formatPointer(pointer)}; Palisade never fills one in, so the handler would not receive the value its type promises: make the field optional and give the default where the handler reads the argument, as in ({ days = 1 }) => ...`,
      );
    }
  });
}

/**
 * The JSON Schema a tool schema stands for: a plain object as it is (checked later like any
 * other), a Standard Schema converted to JSON Schema 2020-12 or refused with
 * 'PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE' naming `where` and the reason.
 */
export function jsonSchemaOf(schema: unknown, where: string): unknown {
  try {
    return convertedSchema(schema, where);
  } catch (error) {
    if (error instanceof PalisadeError) throw error;
    // A getter on the schema, its converter or the converter's result threw (a converter's own
    // throw is convert()'s, with the library's reason). Its text is not ours to repeat.
    throw notConvertible(where, 'is a Standard Schema that threw while Palisade read its properties');
  }
}

function convertedSchema(schema: unknown, where: string): unknown {
  if (!isStandardSchema(schema)) return schema;
  const props = schema['~standard'];
  const vendor = field(props, 'vendor');
  const converter = field(props, 'jsonSchema');
  const input = field(converter, 'input');
  const output = field(converter, 'output');
  if (typeof vendor !== 'string' || typeof input !== 'function' || typeof output !== 'function') {
    throw notConvertible(
      where,
      'is a Standard Schema without the Standard JSON Schema converter (`~standard.jsonSchema`); zod 4 and ArkType carry it, a valibot schema needs `toStandardJsonSchema` from @valibot/to-json-schema',
    );
  }
  const rules = vendorRules(vendor);
  const session = rules.begin(schema, where);
  // Called as methods of the converter object: a library may rely on `this`.
  const json = convert((options) => input.call(converter, options), session.libraryOptions, where, 'input');
  session.end();
  // A transform converts on its input side only; its output side has no JSON Schema. The output
  // conversion is made to find that out, and then discarded.
  const outputSession = rules.begin(schema, where);
  convert((options) => output.call(converter, options), outputSession.libraryOptions, where, 'output');
  outputSession.end();
  refuseDefaults(json, where);
  return json;
}

/**
 * What each library's JSON Schema converter drops without a trace, and how Palisade finds it.
 * Nothing here imports a library: each rule hands the library's own converter a few
 * `libraryOptions` (the Standard JSON Schema interface passes them through) or reads one
 * documented-in-source property of the schema. A library without a row gets the generic checks
 * only (see `standard-schema.ts`), which catch transforms and defaults but not refinements.
 *
 * | vendor  | refused                                                          | found by                                    |
 * | ------- | ---------------------------------------------------------------- | ------------------------------------------- |
 * | zod     | `.refine()` `.superRefine()` `.check()` (custom checks)            | `override`: a check of kind `custom`        |
 * | zod     | `.trim()` `.toLowerCase()` `.overwrite()` (value rewrites)         | `override`: a check of kind `overwrite`     |
 * | zod     | `.regex()` with flags but `u`, or flagless reading otherwise in u  | `override`: a `regex` check (regexDrift)    |
 * | zod     | `.transform()` `.pipe()` `z.preprocess()` codecs                   | `override`: a node of type `pipe`/`transform` |
 * | zod     | `.default()` `.prefault()` `.catch()` `z.success()`                | `override`: a node of that type             |
 * | zod     | `z.custom()`, `z.date()`, `z.bigint()`…                            | `unrepresentable: 'throw'`                  |
 * | valibot | `check`, `trim`, `transform`… pipe actions                         | `errorMode: 'throw'` (input and output side) |
 * | arktype | `.narrow()` and every other constraint with no JSON Schema form    | `fallback`: every code throws               |
 * | arktype | morphs (`.pipe(fn)`) and defaults                                  | `internal.includesTransform`                |
 *
 * Each rule fails closed: if the property it reads or the hook it sets is not there (another
 * major version), the schema is refused rather than trusted.
 */
import { PalisadeError } from '../errors.js';
import { formatPointer } from '../wire/schema-walk.js';

export interface VendorSession {
  /** Passed as `libraryOptions` to the library's converter. */
  readonly libraryOptions: Record<string, unknown>;
  /** Called after the input conversion: throws what the hooks saw, or that they never ran. */
  end(): void;
}

export interface VendorRules {
  begin(schema: object, where: string): VendorSession;
}

function notCarried(where: string, reason: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE', `${where}: ${reason}`);
}

/** A property read that never throws on a primitive; arktype's types are functions. */
export function field(value: unknown, key: string): unknown {
  return (typeof value === 'object' || typeof value === 'function') && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** What to write in place of a default, which every library's refusal of one says. */
const OPTIONAL_INSTEAD =
  'write .optional() in its place and give the default where the handler reads the argument, as in ({ days = 1 }) => ...';

/** zod node types whose value differs from what arrived, and why each is refused. */
const ZOD_NODES: Readonly<Record<string, string>> = {
  pipe: 'a .transform() or .pipe() changes the value after the JSON Schema checks it',
  transform: 'a .transform() changes the value after the JSON Schema checks it',
  default: `a .default() fills in a value Palisade never fills in: ${OPTIONAL_INSTEAD}`,
  prefault: `a .prefault() fills in a value Palisade never fills in: ${OPTIONAL_INSTEAD}`,
  catch: 'a .catch() replaces a refused value, which Palisade refuses instead',
  // z.success(inner) takes what `inner` takes and hands on a boolean; zod's converter describes
  // the boolean on the input side too, so the JSON Schema would check the wrong value.
  success: 'a z.success() hands the handler a boolean in place of the value',
};

/** zod check kinds with no JSON Schema form. */
const ZOD_CHECKS: Readonly<Record<string, string>> = {
  custom: 'a .refine(), .superRefine() or .check() has no JSON Schema form and would not be enforced',
  overwrite: 'a .trim(), .toLowerCase(), .toUpperCase(), .normalize() or .overwrite() rewrites the value',
};

/**
 * Why a zod `.regex()` would match otherwise as the JSON Schema `pattern` zod writes for it, or
 * undefined when it reads the same. zod writes the source and drops the flags, and a JSON Schema
 * pattern is read in `u` mode. So only `u` is carried (`v` reads classes otherwise: `[[a]b]`), and
 * a flagless source is kept only when nothing in it could tell a code unit from a code point:
 * no `.`, negated class, `\S` `\D` `\W`, `\p`, `\u{…}`, surrogate escape or astral character,
 * and no Annex B syntax that `u` mode refuses. Conservative: some harmless sources are refused.
 */
function regexDrift(pattern: unknown): string | undefined {
  if (!(pattern instanceof RegExp)) return 'a .regex() Palisade cannot inspect';
  // `d` (match indices) changes no match; every other flag but `u` does.
  const flags = pattern.flags.replace('d', '');
  if (flags === 'u') return undefined;
  if (flags !== '')
    return `a .regex() with the flag(s) "${flags.replace('u', '')}" matches otherwise as a JSON Schema pattern (only u is carried)`;
  const source = pattern.source;
  const drift = 'a .regex() without the u flag could match otherwise as a JSON Schema pattern (add u)';
  try {
    new RegExp(source, 'u');
  } catch {
    return drift;
  }
  let inClass = false;
  for (let at = 0; at < source.length; at += 1) {
    const unit = source.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdfff) return drift;
    const char = source[at];
    if (char === '\\') {
      const next = source[at + 1] ?? '';
      if (/^[SDWpP]$/.test(next)) return drift;
      if (next === 'u' && /^(?:\{|[dD][89a-fA-F])/.test(source.slice(at + 2, at + 4))) return drift;
      at += 1;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      if (source[at + 1] === '^') return drift;
      inClass = true;
    } else if (char === '.') {
      return drift;
    }
  }
  return undefined;
}

const zod: VendorRules = {
  begin(_schema, where) {
    let visited = 0;
    const override = (context: unknown): void => {
      visited += 1;
      const def = field(field(field(context, 'zodSchema'), '_zod'), 'def');
      const type = field(def, 'type');
      if (typeof type !== 'string') throw notCarried(where, 'holds a zod node Palisade cannot inspect');
      const path = field(context, 'path');
      const at = Array.isArray(path) ? `${formatPointer(path.map(String))}: ` : '';
      const nodeReason = ZOD_NODES[type];
      if (nodeReason !== undefined) throw notCarried(where, `${at}${nodeReason}`);
      const checks = field(def, 'checks') ?? [];
      if (!Array.isArray(checks)) throw notCarried(where, 'holds a zod node Palisade cannot inspect');
      for (const check of checks) {
        const checkDef = field(field(check, '_zod'), 'def');
        const kind = field(checkDef, 'check');
        const checkReason = typeof kind === 'string' ? ZOD_CHECKS[kind] : undefined;
        if (checkReason !== undefined) throw notCarried(where, `${at}${checkReason}`);
        if (kind === 'string_format' && field(checkDef, 'format') === 'regex') {
          const regexReason = regexDrift(field(checkDef, 'pattern'));
          if (regexReason !== undefined) throw notCarried(where, `${at}${regexReason}`);
        }
      }
    };
    return {
      libraryOptions: { unrepresentable: 'throw', override },
      end() {
        if (visited === 0)
          throw notCarried(where, 'is a zod schema whose converter did not call its `override` hook');
      },
    };
  },
};

const valibot: VendorRules = {
  begin() {
    return { libraryOptions: { errorMode: 'throw' }, end() {} };
  },
};

/** ArkType's fallback codes (2.x): each names a constraint its converter would otherwise drop. */
const ARKTYPE_FALLBACKS = [
  'arrayObject',
  'arrayPostfix',
  'defaultValue',
  'domain',
  'morph',
  'patternIntersection',
  'predicate',
  'proto',
  'symbolKey',
  'unit',
  'date',
] as const;

const arktype: VendorRules = {
  begin(schema, where) {
    // Morphs and defaults convert on their input side without a trace, so they are read from
    // the compiled node, which records whether anything in it changes the value.
    const includesTransform = field(field(schema, 'internal'), 'includesTransform');
    if (typeof includesTransform !== 'boolean')
      throw notCarried(where, 'is an ArkType type Palisade cannot inspect (no internal.includesTransform)');
    if (includesTransform)
      throw notCarried(
        where,
        'an ArkType morph (.pipe(fn)) or default changes the value after the JSON Schema checks it (for a default, write the key optional, as "days?": "number", and give the default where the handler reads the argument, as in ({ days = 1 }) => ...)',
      );
    const fallback: Record<string, (context: unknown) => never> = {};
    for (const code of ARKTYPE_FALLBACKS) {
      fallback[code] = () => {
        const what = code === 'predicate' ? 'a .narrow()' : `a constraint of kind "${code}"`;
        throw notCarried(where, `${what} has no JSON Schema form and would not be enforced`);
      };
    }
    return { libraryOptions: { fallback }, end() {} };
  },
};

const GENERIC: VendorRules = {
  begin() {
    return { libraryOptions: {}, end() {} };
  },
};

const RULES: ReadonlyMap<string, VendorRules> = new Map([
  ['zod', zod],
  ['valibot', valibot],
  ['arktype', arktype],
]);

export function vendorRules(vendor: string): VendorRules {
  return RULES.get(vendor) ?? GENERIC;
}

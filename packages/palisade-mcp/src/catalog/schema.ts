// INTERIM (lead): minimal compileSchema so the core can be exercised; the schema helper replaces this file.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PalisadeError } from '../errors.js';

export interface CompiledSchema {
  readonly json: Readonly<Record<string, unknown>>;
  validate(value: unknown): { ok: true } | { ok: false; message: string };
}

const ajv = new Ajv2020({ strict: true, allErrors: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });

export function compileSchema(schema: unknown, where: string, role: 'input' | 'output'): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where} must be a JSON Schema object`);
  }
  const json = structuredClone(schema) as Record<string, unknown>;
  if (role === 'input' && json['type'] !== 'object') {
    throw new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where} must have type "object" at its root`);
  }
  let check: ReturnType<typeof ajv.compile>;
  try {
    check = ajv.compile(json);
  } catch {
    throw new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where} does not compile`);
  }
  return {
    json,
    validate(value) {
      if (check(value)) return { ok: true };
      const error = check.errors?.[0];
      return { ok: false, message: `${error?.instancePath || '(root)'} ${error?.message ?? 'is invalid'}` };
    },
  };
}

export function outputRootIsObject(json: Readonly<Record<string, unknown>>): boolean {
  return json['type'] === 'object';
}

/**
 * `structuredContent` held to the `outputSchema` the tool listed, through the server package's
 * bounded compiler (`palisade-mcp/schema`: the same bounds, linear-time patterns, no `$ref`
 * fetched). A schema the compiler refuses (over a bound, a `$ref` it will not resolve) cannot
 * vouch for anything: a result of that tool carrying structured content is refused by name.
 */
import { type CompiledSchema, compileSchema } from 'palisade-mcp/schema';
import { ClientError } from '../errors.js';

export type OutputCheck = (structured: unknown) => void;

export function outputChecker(schema: unknown): OutputCheck {
  let compiled: CompiledSchema | undefined;
  try {
    compiled = compileSchema(schema, 'outputSchema', 'output');
  } catch {
    compiled = undefined;
  }
  return (structured) => {
    if (structured === undefined) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_STRUCTURED_CONTENT',
        'the tool declares an outputSchema but the result has no structuredContent',
        {
          rule: 'missing',
        },
      );
    }
    if (compiled === undefined) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_STRUCTURED_CONTENT',
        'the tool’s outputSchema could not be compiled within the bounds, so its structuredContent cannot be checked',
        {
          rule: 'schema-refused',
        },
      );
    }
    const verdict = compiled.validate(structured);
    if (!verdict.ok) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_STRUCTURED_CONTENT',
        `structuredContent does not satisfy the outputSchema: ${verdict.message}`,
        {
          rule: 'mismatch',
        },
      );
    }
  };
}

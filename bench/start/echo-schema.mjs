// The one tool both one-tool servers declare.
export const ECHO_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string', maxLength: 10_000 } },
  required: ['text'],
  additionalProperties: false,
};

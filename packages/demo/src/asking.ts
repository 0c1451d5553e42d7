/**
 * The demo's two tools that ask the client something, written once for every revision through
 * `ctx.inputRequired`: on 2026-07-28 the answer comes back in the client's retry, on a 2025-11-25
 * or older session (HTTP with `--sessions`, or stdio) Palisade sends the client a real
 * `sampling/createMessage` or `elicitation/create` request and runs the handler again with the
 * answer. The demo passes no `state`, so it needs no `requestState` sealer. Where the client
 * cannot be asked (an older revision over stateless HTTP) or did not answer, the tool says so in a
 * tool error the model and the person can read.
 */
import {
  defineTool,
  type HandlerContext,
  type InputRequest,
  type InputRequired,
  PalisadeError,
  ToolError,
} from 'palisade-mcp';

/** The key each tool files its one request under; the retry's `inputResponses` uses the same. */
const ANSWER = 'answer';

/** Asks through `ctx.inputRequired`, turning the two "cannot ask" refusals into readable tool errors. */
function ask(ctx: HandlerContext, what: string, request: InputRequest): InputRequired {
  try {
    return ctx.inputRequired({ requests: { [ANSWER]: request } });
  } catch (error) {
    if (!(error instanceof PalisadeError)) throw error;
    if (error.code === 'PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE')
      throw new ToolError(
        `Cannot ask the client for ${what} here: over HTTP a ${ctx.revision} client can be asked only ` +
          'on a session (start the demo with --sessions), or use stdio or 2026-07-28.',
      );
    if (error.code === 'PALISADE_ERR_INPUT_UNANSWERED')
      throw new ToolError(`The client did not answer the request for ${what}: ${error.message}.`);
    throw error;
  }
}

/** The text of a sampling result's content, which 2025-11-25 lets be one block or a list of them. */
function sampledText(content: unknown): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks.flatMap((block) => {
    const text = (block as { type?: unknown; text?: unknown } | null)?.text;
    return (block as { type?: unknown } | null)?.type === 'text' && typeof text === 'string' ? [text] : [];
  });
  return texts.length === 0 ? undefined : texts.join('\n');
}

const QUESTION_SCHEMA = {
  type: 'object',
  properties: { question: { type: 'string', minLength: 1, maxLength: 1000 } },
  additionalProperties: false,
} as const;

export const askModel = defineTool<{ question?: string }>({
  name: 'ask_model',
  title: 'Ask the client’s model',
  description:
    'Asks the model of the connected client (sampling/createMessage) to answer a question, by default ' +
    '"What is the capital of France?", and returns its answer. The client must offer sampling.',
  inputSchema: QUESTION_SCHEMA,
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: ({ question = 'What is the capital of France?' }, ctx) => {
    const answer = ctx.inputResponses?.[ANSWER];
    if (answer === undefined)
      return ask(ctx, 'a completion', {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: question } }],
          maxTokens: 200,
        },
      });
    const text = sampledText(answer['content']);
    if (text === undefined) throw new ToolError('The client’s model answered without any text.');
    const model = typeof answer['model'] === 'string' ? answer['model'] : 'an unnamed model';
    return { content: [{ type: 'text', text: `The client’s model (${model}) answered: ${text}` }] };
  },
});

export const askUser = defineTool<{ question?: string }>({
  name: 'ask_user',
  title: 'Ask the user',
  description:
    'Asks the person at the client a question (elicitation/create, a form with one text field), by ' +
    'default "What is your name?", and returns what they answered, declined or cancelled. The ' +
    'client must offer elicitation, which 2025-06-18 and later define.',
  inputSchema: QUESTION_SCHEMA,
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: ({ question = 'What is your name?' }, ctx) => {
    const answer = ctx.inputResponses?.[ANSWER];
    if (answer === undefined)
      return ask(ctx, 'an answer', {
        method: 'elicitation/create',
        params: {
          message: question,
          requestedSchema: {
            type: 'object',
            properties: { answer: { type: 'string', title: 'Your answer', maxLength: 1000 } },
            required: ['answer'],
          },
        },
      });
    if (answer['action'] === 'decline')
      return { content: [{ type: 'text', text: 'The user declined to answer.' }] };
    if (answer['action'] === 'cancel')
      return { content: [{ type: 'text', text: 'The user dismissed the question.' }] };
    const given = (answer['content'] as { answer?: unknown } | undefined)?.answer;
    if (answer['action'] !== 'accept' || typeof given !== 'string')
      throw new ToolError('The client’s answer was not an accepted form with a text answer.');
    return { content: [{ type: 'text', text: `The user answered: ${given}` }] };
  },
});

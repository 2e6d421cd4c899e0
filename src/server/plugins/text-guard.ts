import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. PostgreSQL cannot
 * store U+0000 in text at all (the insert fails after validation passed), and the others have no
 * place in a name, a game, a note or an address: they hide text in the admin's views, break CSV
 * exports and carry terminal escapes into logs.
 */
// Matching control characters is this pattern's whole purpose.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The text with its control characters left out: for names we keep but never refuse (a file's). */
export function withoutControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTER.source, 'g'), '');
}

export const CONTROL_CHARACTER_MESSAGE = 'Must not contain control characters';

/** The dotted path of the first string under `value` that holds a control character. */
export function findControlCharacter(value: unknown): string | undefined {
  // An explicit stack, not recursion: a body of 50,000 nested arrays is valid JSON.
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const current = next.value;
    if (typeof current === 'string') {
      if (CONTROL_CHARACTER.test(current)) return next.path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: join(next.path, index) }));
    } else if (isParsedObject(current)) {
      for (const [key, item] of Object.entries(current)) {
        stack.push({ value: item, path: join(next.path, key) });
      }
    }
  }
  return undefined;
}

/** Refuses a text field holding a control character with the 400 a schema refusal gets. */
export function assertNoControlCharacters(value: unknown, field: string): void {
  const path = findControlCharacter(value);
  if (path === undefined) return;
  const name = [field, path].filter(Boolean).join('.') || 'body';
  throw new AppError('VALIDATION_FAILED', CONTROL_CHARACTER_MESSAGE, {
    fields: { [name]: CONTROL_CHARACTER_MESSAGE },
  });
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** Parsed text: JSON values and the query and params objects, not a raw body's bytes. */
function isParsedObject(value: unknown): value is Record<string, unknown> {
  // The query parser's objects inherit from a prototype-less object of its own, so their
  // prototype is neither null nor Object.prototype: only binary bodies (webhooks) are skipped.
  return value !== null && typeof value === 'object' && !ArrayBuffer.isView(value);
}

/**
 * Every text that enters through params, the query string or a JSON body is checked once here,
 * before any route's schema: a control character is refused with a 400 naming the field, for
 * every route, present and future. Multipart text fields are read by their routes, which call
 * `assertNoControlCharacters` themselves.
 */
export const textGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request, _reply, done) => {
      try {
        // Params and query keys are the route's own names, so they are not prefixed.
        assertNoControlCharacters(request.params, '');
        assertNoControlCharacters(request.query, '');
        assertNoControlCharacters(request.body, '');
      } catch (error) {
        done(error as AppError);
        return;
      }
      done();
    });
  },
  { name: 'text-guard' },
);
